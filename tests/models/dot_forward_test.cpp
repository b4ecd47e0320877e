// The dot-product forward (numerics version 8: 16 partial sums per dot product) and the joint
// pMoE that runs it: the same bits on the AVX-512, AVX2 and portable kernel paths, over neuron
// counts and patch dims that are not multiples of a vector's lanes, and against the order of
// sums spelled out. (Run where the CPU has AVX-512; elsewhere only the portable path exists.)
#include "pmoe/models/dot_forward.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "pmoe/core/rng.hpp"
#include "pmoe/data/pattern_model.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/family/model_spec.hpp"
#include "pmoe/models/kernel_path.hpp"
#include "pmoe/models/row_kernels.hpp"

namespace pmoe {
namespace {

// Normals with some exact zeros of either sign and repeated values.
float Value(Rng& rng) {
  const double u = rng.Uniform();
  if (u < 0.05) return 0.0f;
  if (u < 0.10) return -0.0f;
  if (u < 0.15) return 0.5f;
  return static_cast<float>(rng.Normal());
}

bool SameBits(const float* a, const float* b, size_t count) {
  return std::memcmp(a, b, count * sizeof(float)) == 0;
}

// z[r][k] in version 8's order: lane l of 16 takes j = l, l + 16, ... by FMAs from +0 (zeros past
// d), lanes l and l + 8 are added, then SumLanes8's tree: (0+2) + (1+3), (4+6) + (5+7), the two.
float SpelledOutDot(const float* x, const float* w, int d) {
  float s[16] = {};
  for (int j0 = 0; j0 < d; j0 += 16)
    for (int l = 0; l < 16; ++l)
      s[l] = std::fma(j0 + l < d ? x[j0 + l] : 0.0f, j0 + l < d ? w[j0 + l] : 0.0f, s[l]);
  float t[8];
  for (int l = 0; l < 8; ++l) t[l] = s[l] + s[l + 8];
  return ((t[0] + t[2]) + (t[1] + t[3])) + ((t[4] + t[6]) + (t[5] + t[7]));
}

struct DotOutputs {
  std::vector<float> z, zf, hf;  // z alone; z and h from the fused pass
};

// One float of guard on each side of every output: the kernels must not write there.
DotOutputs RunDot(KernelPath path, const std::vector<const float*>& rows, int d,
                  const std::vector<float>& w, int q, const std::vector<float>& a) {
  ForceKernelPath(path);
  const int R = static_cast<int>(rows.size());
  DotOutputs o;
  o.z.assign(R * q + 2, 9.0f);
  o.zf.assign(R * q + 2, 9.0f);
  o.hf.assign(R + 2, 9.0f);
  RowsTimesW(rows.data(), R, d, w.data(), q, o.z.data() + 1);
  RowsTimesW(rows.data(), R, d, w.data(), q, o.zf.data() + 1, a.data(), o.hf.data() + 1);
  return o;
}

std::vector<KernelPath> PathsHere() {
  std::vector<KernelPath> paths;
  for (KernelPath path : {KernelPath::kAvx512, KernelPath::kAvx2, KernelPath::kPortable})
    if (CpuRuns(path)) paths.push_back(path);
  return paths;
}

}  // namespace

TEST_CASE("The dot-product forward gives the same bits on every kernel path", "[kernels][dot]") {
  if (!CpuRuns(KernelPath::kAvx512)) {
    WARN("SKIPPED: this CPU has no AVX-512, so only the portable kernels run here");
    return;
  }
  const KernelPath before = ActiveKernelPath();
  Rng rng(41);
  int cases = 0;
  for (int q = 1; q <= 11; ++q) {
    if (!DotForwardFaster(q)) continue;
    for (int d : {1, 7, 8, 15, 16, 17, 31, 33, 64, 70, 100})
      for (int R : {1, 2, 3, 4, 5, 7, 16, 17, 37}) {
        std::vector<float> data(static_cast<size_t>(R) * d), w(q * d), a(q);
        for (auto* v : {&data, &w, &a})
          for (float& x : *v) x = Value(rng);
        std::vector<const float*> rows(R);
        for (int r = 0; r < R; ++r) rows[r] = data.data() + ((r * 5) % R) * d;
        std::vector<float> chain(R * q), h_ref(R);
        for (int r = 0; r < R; ++r)
          for (int k = 0; k < q; ++k) chain[r * q + k] = SpelledOutDot(rows[r], &w[k * d], d);
        const DotOutputs x = RunDot(KernelPath::kAvx512, rows, d, w, q, a);
        ReluOutputs(x.z.data() + 1, R, q, a.data(), h_ref.data());  // on the AVX-512 path
        INFO("q = " << q << ", d = " << d << ", R = " << R);
        CHECK(SameBits(x.z.data() + 1, chain.data(), R * q));
        CHECK(SameBits(x.zf.data() + 1, chain.data(), R * q));
        CHECK(SameBits(x.hf.data() + 1, h_ref.data(), R));  // fused h is ReluOutputs' h
        for (const std::vector<float>* out : {&x.z, &x.zf, &x.hf}) {
          CHECK(out->front() == 9.0f);
          CHECK(out->back() == 9.0f);
        }
        for (KernelPath path : {KernelPath::kAvx2, KernelPath::kPortable}) {
          if (!CpuRuns(path)) continue;
          const DotOutputs y = RunDot(path, rows, d, w, q, a);
          INFO(KernelPathName(path));
          CHECK(x.z == y.z);  // vectors of floats: the guards included; no NaN here
          CHECK(SameBits(x.zf.data(), y.zf.data(), x.zf.size()));
          CHECK(SameBits(x.hf.data(), y.hf.data(), x.hf.size()));
        }
        ++cases;
      }
  }
  ForceKernelPath(before);
  CHECK(cases == 9 * 11 * 9);
}

// The whole float model, gating (top-l routing, softmax) and dot forward included: loss,
// gradient and forward outputs the same bits on each path, with l = 1, l = 6 and l = n, and patch
// dims with and without a masked tail. q = m / k = 5 neurons per expert (pmoe-bench's S-joint)
// and q = 3.
TEST_CASE("The joint pMoE gives the same loss, gradient and outputs on every kernel path",
          "[kernels][dot][joint]") {
  const std::vector<KernelPath> paths = PathsHere();
  const KernelPath before = ActiveKernelPath();
  for (int d : {64, 70, 13})
    for (int l : {1, 6, 16})
      for (int m : {40, 24}) {
        DataSpec data;
        data.n = 16;
        data.d = d;
        data.p = 4;
        data.l_star = 2;
        PatternModel source(PlanPatternModel(data), /*data_seed=*/5);
        const int samples = 37;
        const Dataset set = source.Draw(Split::kTrain, samples);
        ModelSpec spec;
        spec.kind = "joint";
        spec.m = m;
        spec.k = 8;
        spec.l = l;
        spec.sigma_g = 0.5;
        spec.output_init = "gaussian";
        std::vector<int> batch(29);
        for (int i = 0; i < 29; ++i) batch[i] = (i * 7) % samples;
        std::vector<Vec<float>> grads;
        std::vector<std::vector<float>> outputs;
        std::vector<double> losses;
        for (KernelPath path : paths) {
          ForceKernelPath(path);
          auto model = MakeModel<float>(spec, d, /*init_seed=*/9);
          const PatchBlocks<float> in = model->Prepare(set.x, samples);
          Vec<float> grad;
          losses.push_back(model->LossAndGradient(in, batch.data(), 29, set.label.data(), grad));
          grads.push_back(grad);
          outputs.emplace_back(samples * model->loss().outputs());
          model->Forward(in, 0, samples, outputs.back().data());
        }
        for (size_t i = 1; i < paths.size(); ++i) {
          INFO(KernelPathName(paths[i]) << ": d = " << d << ", l = " << l << ", m = " << m);
          CHECK(losses[i] == losses[0]);
          REQUIRE(grads[i].size() == grads[0].size());
          CHECK(SameBits(grads[i].data(), grads[0].data(), grads[0].size()));
          CHECK(SameBits(outputs[i].data(), outputs[0].data(), outputs[0].size()));
        }
        CHECK(grads[0].cwiseAbs().maxCoeff() > 0.0f);
      }
  ForceKernelPath(before);
}

// Separate pMoE (q = m / k neurons per expert: 20 and 36, whose last 4 neurons sum 4 chains in
// numerics version 8, and 13) and the CNN (q = m: 40, 72, 26) on the broadcast forward and its
// fused outputs (numerics-8-rows.md): the same bits on every path, at patch dims on and off the
// 16-lane grid and mini-batches that leave partial row blocks.
TEST_CASE("Separate pMoE and the CNN give the same loss and gradient bits on every kernel path",
          "[kernels][separate][cnn]") {
  const std::vector<KernelPath> paths = PathsHere();
  const KernelPath before = ActiveKernelPath();
  for (const char* kind : {"separate", "cnn"})
    for (int d : {64, 70, 13})
      for (int m : {40, 72, 26}) {
        DataSpec data;
        data.n = 16;
        data.d = d;
        data.p = 4;
        data.l_star = 2;
        PatternModel source(PlanPatternModel(data), /*data_seed=*/7);
        const int samples = 37;
        const Dataset set = source.Draw(Split::kTrain, samples);
        ModelSpec spec;
        spec.kind = kind;
        spec.m = m;
        spec.k = 2;
        spec.l = 5;
        spec.output_init = "gaussian";
        std::vector<int> batch(29);
        for (int i = 0; i < 29; ++i) batch[i] = (i * 7) % samples;
        std::vector<Vec<float>> grads;
        std::vector<std::vector<float>> outputs;
        std::vector<double> losses;
        for (KernelPath path : paths) {
          ForceKernelPath(path);
          auto model = MakeModel<float>(spec, d, /*init_seed=*/11);
          const PatchBlocks<float> in = model->Prepare(set.x, samples);
          Vec<float> grad;
          losses.push_back(model->LossAndGradient(in, batch.data(), 29, set.label.data(), grad));
          grads.push_back(grad);
          outputs.emplace_back(samples * model->loss().outputs());
          model->Forward(in, 0, samples, outputs.back().data());
        }
        for (size_t i = 1; i < paths.size(); ++i) {
          INFO(KernelPathName(paths[i]) << ": " << kind << ", d = " << d << ", m = " << m);
          CHECK(losses[i] == losses[0]);
          REQUIRE(grads[i].size() == grads[0].size());
          CHECK(SameBits(grads[i].data(), grads[0].data(), grads[0].size()));
          CHECK(SameBits(outputs[i].data(), outputs[0].data(), outputs[0].size()));
        }
        CHECK(grads[0].cwiseAbs().maxCoeff() > 0.0f);
      }
  ForceKernelPath(before);
}

}  // namespace pmoe
