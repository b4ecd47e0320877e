// The AVX-512 row kernels against plain double-precision products: the forward for every lane
// split (0-2 full 16-lane vectors with no tail, an 8-lane tail or a masked 16-lane tail) and for
// more neurons than one pass takes (53, 100), the
// gradient for neuron groups of 1-6 and patch dims with masked tails; odd row counts, the
// benchmark's patch sizes.
#include "pmoe/models/row_kernels.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "pmoe/core/rng.hpp"

namespace pmoe {

TEST_CASE("Row kernels match double-precision products", "[kernels]") {
  if (!RowKernelsAvailable()) {
    WARN("SKIPPED: built without AVX-512; the models use Eigen");
    return;
  }
  Rng rng(9);
  for (int q : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 20, 24, 31, 32, 36, 40, 44, 48, 53, 100})
    for (int d : {3, 17, 64, 100, 784})
      for (int R : {1, 7, 80}) {
        std::vector<float> data(static_cast<size_t>(R + 3) * d), wt(d * q), g(R * q);
        for (auto& v : data) v = static_cast<float>(rng.Normal());
        for (auto& v : wt) v = static_cast<float>(rng.Normal());
        for (auto& v : g) v = static_cast<float>(rng.Normal());
        std::vector<const float*> rows(R);
        for (int r = 0; r < R; ++r) rows[r] = data.data() + ((r * 7) % (R + 3)) * d;  // scattered
        // z's 16 floats past its end hold a sentinel, which no store may touch.
        std::vector<float> z(R * q + 16, 777.0f), dw(q * d), dwt(d * q);
        RowsTimesWt(rows.data(), R, d, wt.data(), q, z.data());
        GTransposedTimesRows(rows.data(), R, d, g.data(), q, dw.data());
        RowsTransposedTimesG(rows.data(), R, d, g.data(), q, dwt.data());
        double worst_z = 0, worst_dw = 0;
        int transposed_mismatches = 0;
        for (int r = 0; r < R; ++r)
          for (int k = 0; k < q; ++k) {
            double ref = 0;
            for (int j = 0; j < d; ++j) ref += double(rows[r][j]) * wt[j * q + k];
            worst_z = std::max(worst_z, std::abs(ref - z[r * q + k]) / std::sqrt(d));
          }
        for (int j = 0; j < d; ++j)
          for (int k = 0; k < q; ++k) {
            double ref = 0;
            for (int r = 0; r < R; ++r) ref += double(rows[r][j]) * g[r * q + k];
            worst_dw = std::max(worst_dw, std::abs(ref - dw[k * d + j]) / std::sqrt(R));
            transposed_mismatches += dwt[j * q + k] != dw[k * d + j];
          }
        INFO("q=" << q << " d=" << d << " R=" << R);
        REQUIRE(std::count(z.end() - 16, z.end(), 777.0f) == 16);
        REQUIRE(worst_z < 1e-5);  // float rounding of sums of d unit-variance products
        REQUIRE(worst_dw < 1e-5);
        REQUIRE(transposed_mismatches == 0);  // the same numbers in the other layout
      }
}

TEST_CASE("ReLU kernels match their definitions", "[kernels]") {
  if (!RowKernelsAvailable()) {
    WARN("SKIPPED: built without AVX-512; the models use Eigen");
    return;
  }
  Rng rng(4);
  // R = 1 and 13 store some rows masked, 40 most of them whole (their vectors spill into the
  // next row, which must then overwrite the spill): q = 1-15 with the extra column, 1-16 without.
  for (int q : {1, 5, 15, 16, 20, 40})
    for (int R : {1, 13, 40})
      for (bool with_extra : {false, true}) {
        const int cols = q + with_extra;
        // g's 16 floats past its end hold a sentinel, which no store may touch.
        std::vector<float> z(R * q), a(q), coef(R), extra(R), h(R), g(R * cols + 16, 777.0f);
        for (auto& v : z) v = static_cast<float>(rng.Normal());
        for (auto& v : a) v = static_cast<float>(rng.Normal());
        for (auto& v : coef) v = static_cast<float>(rng.Normal());
        for (auto& v : extra) v = static_cast<float>(rng.Normal());
        ReluOutputs(z.data(), R, q, a.data(), h.data());
        ReluGradient(z.data(), R, q, a.data(), coef.data(), with_extra ? extra.data() : nullptr,
                     g.data());
        int wrong = 0;
        double worst_h = 0;
        for (int r = 0; r < R; ++r) {
          double ref = 0;
          for (int k = 0; k < q; ++k) {
            ref += double(a[k]) * std::max(z[r * q + k], 0.0f);
            wrong += g[r * cols + k] != (z[r * q + k] > 0 ? coef[r] * a[k] : 0.0f);
          }
          if (with_extra) wrong += g[r * cols + q] != extra[r];
          worst_h = std::max(worst_h, std::abs(ref - h[r]));
        }
        for (int t = 0; t < 16; ++t) wrong += g[R * cols + t] != 777.0f;
        INFO("q=" << q << " R=" << R << " extra=" << with_extra);
        CHECK(wrong == 0);
        CHECK(worst_h < 1e-5);
      }
}

}  // namespace pmoe
