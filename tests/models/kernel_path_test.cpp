// The AVX2 and portable kernels are the AVX-512 kernels' twins bit for bit: every kernel, on
// each path, over neuron counts that take each lane split and the dot-product forward, patch dims
// with masked tails, and inputs with zeros of both signs, exact ties and negative values. (Run
// where the CPU has AVX-512; elsewhere only the portable path exists.)
#include "pmoe/models/kernel_path.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

#include "pmoe/core/rng.hpp"
#include "pmoe/models/dot_forward.hpp"
#include "pmoe/models/row_kernels.hpp"
#include "pmoe/models/row_lanes_forward.hpp"
#include "pmoe/models/topl.hpp"

namespace pmoe {
namespace {

// Normals with some exact zeros of either sign, and repeated values.
float Value(Rng& rng) {
  const double u = rng.Uniform();
  if (u < 0.05) return 0.0f;
  if (u < 0.10) return -0.0f;
  if (u < 0.15) return 0.5f;
  return static_cast<float>(rng.Normal());
}

struct Outputs {
  std::vector<float> z, dw, dwt, h, g, gx, zf, hf;  // zf, hf: the fused forward and outputs
  std::vector<int> routes;
};

Outputs RunAll(KernelPath path, int R, int d, int q, const std::vector<const float*>& rows,
               const std::vector<float>& wt, const std::vector<float>& gin,
               const std::vector<float>& a, const std::vector<float>& coef,
               const std::vector<float>& scores, int n, int k, int l) {
  ForceKernelPath(path);
  Outputs o;
  o.z.assign(R * q, 0);
  o.dw.assign(q * d, 0);
  o.dwt.assign(d * q, 0);
  o.h.assign(R, 0);
  o.g.assign(R * q + 16, 0);
  o.gx.assign(R * (q + 1) + 16, 0);
  RowsTimesWt(rows.data(), R, d, wt.data(), q, o.z.data());
  GTransposedTimesRows(rows.data(), R, d, gin.data(), q, o.dw.data());
  RowsTransposedTimesG(rows.data(), R, d, gin.data(), q, o.dwt.data());
  ReluOutputs(o.z.data(), R, q, a.data(), o.h.data());
  o.zf.assign(R * q, 0);
  o.hf.assign(R, 0);
  RowsTimesWtReluOutputs(rows.data(), R, d, wt.data(), q, a.data(), o.zf.data(), o.hf.data());
  ReluGradient(o.z.data(), R, q, a.data(), coef.data(), nullptr, o.g.data());
  ReluGradient(o.z.data(), R, q, a.data(), coef.data(), coef.data(), o.gx.data());
  o.routes.assign(k * l, -1);
  TopLAllExperts(scores.data(), n, k, l, o.routes.data());
  return o;
}

bool SameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("The AVX2 and portable kernels give the AVX-512 kernels' bits", "[kernels][portable]") {
  if (!CpuRuns(KernelPath::kAvx512)) {
    WARN("SKIPPED: this CPU has no AVX-512, so only the portable kernels run here");
    return;
  }
  const KernelPath before = ActiveKernelPath();
  Rng rng(17);
  int cases = 0;
  for (int q : {1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 16, 20, 24, 33, 40, 48, 53})
    for (int d : {3, 8, 17, 64, 100})
      for (int R : {1, 5, 9, 37}) {
        std::vector<float> data(static_cast<size_t>(R) * d), wt(d * q), gin(R * q), a(q), coef(R);
        for (auto* v : {&data, &wt, &gin, &a, &coef})
          for (float& x : *v) x = Value(rng);
        std::vector<const float*> rows(R);
        for (int r = 0; r < R; ++r) rows[r] = data.data() + ((r * 5) % R) * d;
        const int n = 16, k = 1 + q % 12, l = 1 + d % 6;
        std::vector<float> scores(n * k);
        for (float& x : scores) x = Value(rng);
        const Outputs x =
            RunAll(KernelPath::kAvx512, R, d, q, rows, wt, gin, a, coef, scores, n, k, l);
        for (KernelPath path : {KernelPath::kAvx2, KernelPath::kPortable}) {
          if (!CpuRuns(path)) continue;
          const Outputs y = RunAll(path, R, d, q, rows, wt, gin, a, coef, scores, n, k, l);
          INFO(KernelPathName(path) << ": q = " << q << ", d = " << d << ", R = " << R);
          CHECK(SameBits(x.z, y.z));
          CHECK(SameBits(x.dw, y.dw));
          CHECK(SameBits(x.dwt, y.dwt));
          CHECK(SameBits(x.h, y.h));
          CHECK(SameBits(x.zf, y.zf));
          CHECK(SameBits(x.hf, y.hf));
          CHECK(SameBits(x.zf, x.z));  // fused or not, the same bits on each path
          CHECK(SameBits(x.hf, x.h));
          CHECK(SameBits(y.hf, y.h));
          // Rows of g, not the spill past its end (the AVX-512 stores write whole vectors there).
          CHECK(std::memcmp(x.g.data(), y.g.data(), R * q * 4) == 0);
          CHECK(std::memcmp(x.gx.data(), y.gx.data(), R * (q + 1) * 4) == 0);
          CHECK(x.routes == y.routes);
        }
        ++cases;
      }
  ForceKernelPath(before);
  CHECK(cases == 17 * 5 * 4);
}

// The forward with rows in the vector lanes (taken for some q on AVX-512 CPUs) gives the
// broadcast kernel's chain of FMAs (fma(x[r][j], w[j][k], acc) for j = 0, 1, ...) for every q it
// takes, over whole and partial blocks of 16 and 32 rows and patch dims with and without a
// 16-column tail.
TEST_CASE("The row-lanes forward gives the broadcast kernel's bits", "[kernels][portable]") {
  if (!CpuRuns(KernelPath::kAvx512)) {
    WARN("SKIPPED: this CPU has no AVX-512, so the row-lanes forward never runs here");
    return;
  }
  Rng rng(29);
  int cases = 0, faster = 0;
  for (int q = 4; q <= 48; ++q) {
    REQUIRE(RowLanesForwardTakes(q));
    faster += RowLanesForwardFaster(q) ? 1 : 0;
    for (int d : {1, 15, 16, 17, 64, 130})
      for (int R : {1, 15, 16, 17, 32, 33, 48, 80}) {
        std::vector<float> data(static_cast<size_t>(R) * d), wt(d * q);
        for (auto* v : {&data, &wt})
          for (float& x : *v) x = Value(rng);
        std::vector<const float*> rows(R);
        for (int r = 0; r < R; ++r) rows[r] = data.data() + ((r * 7) % R) * d;
        // One float past z on each side: the kernel must not write there.
        std::vector<float> lanes(R * q + 2, 9.0f), chain(R * q, 0.0f);
        RowLanesForward(rows.data(), R, d, wt.data(), q, lanes.data() + 1);
        for (int r = 0; r < R; ++r)  // the broadcast kernel's chain, spelled out
          for (int k = 0; k < q; ++k)
            for (int j = 0; j < d; ++j)
              chain[r * q + k] = std::fma(rows[r][j], wt[j * q + k], chain[r * q + k]);
        INFO("q = " << q << ", d = " << d << ", R = " << R);
        CHECK(std::memcmp(lanes.data() + 1, chain.data(), R * q * 4) == 0);
        // h alone (no z), against ReluOutputs on the chain's z, with output weights of both
        // signs and exact zeros (products of -0 included).
        std::vector<float> a(q), h(R + 2, 9.0f), h_ref(R);
        for (float& x : a) x = Value(rng);
        RowLanesForward(rows.data(), R, d, wt.data(), q, nullptr, a.data(), h.data() + 1);
        ReluOutputs(chain.data(), R, q, a.data(), h_ref.data());
        CHECK(std::memcmp(h.data() + 1, h_ref.data(), R * 4) == 0);
        CHECK(h.front() == 9.0f);
        CHECK(h.back() == 9.0f);
        CHECK(lanes.front() == 9.0f);
        CHECK(lanes.back() == 9.0f);
        ++cases;
      }
  }
  CHECK(cases == 45 * 6 * 8);
  CHECK(faster > 0);
}

// The forward with neurons in the lanes (the broadcast kernel, 8 rows a block) and its fused
// outputs, numerics version 8 (numerics-8-rows.md): on every path, z is the chain of FMAs over j
// (or, for the last 4 neurons of q = 20 and 36, 4 chains summed) and h is ReluOutputs' on that z,
// for every q not taken by the dot-product forward (q = 20 and 40: separate pMoE and the CNN;
// odd q; two passes at q = 53), patch dims off the 16-lane grid and shorter than 4, whole and
// partial 8-row blocks.
TEST_CASE("The broadcast forward and its fused outputs give the chain's bits on every path",
          "[kernels][portable]") {
  const KernelPath before = ActiveKernelPath();
  Rng rng(31);
  int cases = 0;
  for (int q = 12; q <= 53; ++q) {
    if (DotForwardFaster(q)) continue;
    for (int d : {1, 2, 3, 15, 17, 64, 100})
      for (int R : {1, 7, 8, 9, 17, 37}) {
        std::vector<float> data(static_cast<size_t>(R) * d), wt(d * q), a(q);
        for (auto* v : {&data, &wt, &a})
          for (float& x : *v) x = Value(rng);
        std::vector<const float*> rows(R);
        for (int r = 0; r < R; ++r) rows[r] = data.data() + ((r * 3) % R) * d;
        std::vector<float> chain(R * q, 0.0f), h_ref(R);
        // Version 8: the last 4 neurons of q = 20 and 36 sum 4 chains over j = s, s + 4, ...
        // (zeros padding j to a multiple of 4).
        const int G = q == 20 || q == 36 ? 4 : 1;
        const int chained = G > 1 ? q - q % 16 : q;
        for (int r = 0; r < R; ++r)
          for (int k = 0; k < q; ++k) {
            if (k < chained) {
              for (int j = 0; j < d; ++j)
                chain[r * q + k] = std::fma(rows[r][j], wt[j * q + k], chain[r * q + k]);
              continue;
            }
            float p[4] = {};
            for (int j0 = 0; j0 < d; j0 += G)
              for (int s = 0; s < G; ++s) {
                const bool in = j0 + s < d;
                p[s] =
                    std::fma(in ? rows[r][j0 + s] : 0.0f, in ? wt[(j0 + s) * q + k] : 0.0f, p[s]);
              }
            chain[r * q + k] = (p[0] + p[1]) + (p[2] + p[3]);
          }
        for (KernelPath path : {KernelPath::kAvx512, KernelPath::kAvx2, KernelPath::kPortable}) {
          if (!CpuRuns(path)) continue;
          ForceKernelPath(path);
          ReluOutputs(chain.data(), R, q, a.data(), h_ref.data());
          // One float past z and h on each side: the kernels must not write there.
          std::vector<float> z(R * q + 2, 9.0f), zf(R * q + 2, 9.0f), hf(R + 2, 9.0f);
          RowsTimesWt(rows.data(), R, d, wt.data(), q, z.data() + 1);
          RowsTimesWtReluOutputs(rows.data(), R, d, wt.data(), q, a.data(), zf.data() + 1,
                                 hf.data() + 1);
          INFO(KernelPathName(path) << ": q = " << q << ", d = " << d << ", R = " << R);
          CHECK(std::memcmp(z.data() + 1, chain.data(), R * q * 4) == 0);
          CHECK(std::memcmp(zf.data() + 1, chain.data(), R * q * 4) == 0);
          CHECK(std::memcmp(hf.data() + 1, h_ref.data(), R * 4) == 0);
          CHECK((z.front() == 9.0f && z.back() == 9.0f && zf.front() == 9.0f && zf.back() == 9.0f &&
                 hf.front() == 9.0f && hf.back() == 9.0f));
        }
        ++cases;
      }
  }
  ForceKernelPath(before);
  CHECK(cases > 30 * 7 * 6);
}

}  // namespace pmoe
