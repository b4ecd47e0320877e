// Numerics version 8's switch MoE kernels give the same bits on the portable, AVX2 and AVX-512
// paths: the published loss four samples at a time (against the scalar loss, over values that
// overflow, underflow, are infinite, NaN (then NaN on every path) or signed zeros), the router
// noise, and the whole fused training pass on awkward shapes (expert counts around 8 and 16, batch
// tails, unbatched J).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "pmoe/core/rng.hpp"
#include "pmoe/data/cluster_model.hpp"
#include "pmoe/models/double_softmax_lanes.hpp"
#include "pmoe/models/kernel_path.hpp"
#include "pmoe/models/loss.hpp"
#include "pmoe/models/switch_moe.hpp"

namespace pmoe {
namespace {

template <typename V>
bool SameBits(const V& a, const V& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(*a.data())) == 0;
}

// The same bits, or NaN both (a NaN's payload and sign are not specified: which operand an
// instruction propagates differs between scalar and vector code).
bool SameValue(double a, double b) {
  return std::isnan(a) ? std::isnan(b) : std::memcmp(&a, &b, sizeof a) == 0;
}

std::vector<KernelPath> PathsHere() {
  std::vector<KernelPath> paths;
  for (KernelPath path : {KernelPath::kAvx512, KernelPath::kAvx2, KernelPath::kPortable})
    if (CpuRuns(path)) paths.push_back(path);
  return paths;
}

// Logits of every kind the loss can meet: ordinary, large (exp overflows or underflows), exact
// ties, signed zeros, infinities and NaN.
std::vector<double> AwkwardLogits() {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> v = {0.0,   -0.0,   1.0,     -1.0, 0.5,  1e-300,      -1e-300, 30.0,
                           -30.0, 700,    -700,    710,  -710, 745.2,       -745.2,  1e5,
                           -1e5,  3.4e38, -3.4e38, inf,  -inf, std::nan("")};
  Rng rng(3);
  for (int k = 0; k < 200; ++k) v.push_back(rng.Normal() * (k < 100 ? 3 : 300));
  return v;
}

}  // namespace

TEST_CASE("The published loss four at a time gives the scalar loss's bits on every path",
          "[loss][kernels][portable]") {
  const std::vector<double> logits = AwkwardLogits();
  const int n = static_cast<int>(logits.size());
  const DoubleSoftmaxCrossEntropy<double> loss(2);
  int cases = 0;
  for (int a = 0; a < n; ++a)
    for (int b0 = 0; b0 < n; b0 += 4) {
      double mine[4], other[4], v_port[4], g_port[4];
      for (int k = 0; k < 4; ++k) {
        mine[k] = logits[a];
        other[k] = logits[(b0 + k) % n];
      }
      DoubleSoftmaxTwo4Portable(mine, other, v_port, g_port);
      for (int k = 0; k < 4; ++k) {  // the scalar loss of one sample, label 0
        const double f[2] = {mine[k], other[k]};
        double slope[2];
        const double value = loss.ValueAndSlope(f, 0, slope);
        INFO("mine " << mine[k] << ", other " << other[k]);
        CHECK(SameValue(value, v_port[k]));
        CHECK(SameValue(slope[0], g_port[k]));
      }
      if (CpuRuns(KernelPath::kAvx2)) {
        double v_avx[4], g_avx[4];
        DoubleSoftmaxTwo4Avx2(mine, other, v_avx, g_avx);
        INFO("mine " << mine[0] << ", others from " << b0);
        for (int k = 0; k < 4; ++k) {
          CHECK(SameValue(v_avx[k], v_port[k]));
          CHECK(SameValue(g_avx[k], g_port[k]));
        }
      }
      ++cases;
    }
  CHECK(cases > 10000);
  // The loss's floor and ceiling: log(1 + 1/e) at a sure right answer, log(1 + e) at a sure
  // wrong one; a NaN logit gives a NaN loss.
  const double right[2] = {1e6, -1e6}, wrong[2] = {-1e6, 1e6}, nan[2] = {std::nan(""), 0};
  CHECK(loss.Value(right, 0) == Approx(std::log1p(std::exp(-1.0))).epsilon(1e-15));
  CHECK(loss.Value(wrong, 0) == Approx(std::log1p(std::exp(1.0))).epsilon(1e-15));
  CHECK(std::isnan(loss.Value(nan, 0)));
}

TEST_CASE("ValuesAndSlopes gives ValueAndSlope's bits for any count on every path",
          "[loss][kernels][portable]") {
  const KernelPath before = ActiveKernelPath();
  const DoubleSoftmaxCrossEntropy<float> loss(2);
  Rng rng(11);
  const int count = 23;  // five calls of four and a tail of three
  std::vector<float> f(2 * count);
  std::vector<int> labels(count);
  for (float& x : f) x = static_cast<float>(rng.Normal() * 20);
  f[4] = f[5];  // a tie
  f[6] = std::numeric_limits<float>::infinity();
  for (int& l : labels) l = rng.Coin() ? 1 : 0;
  std::vector<double> ref_value(count), ref_slope(2 * count);
  for (int k = 0; k < count; ++k)
    ref_value[k] = loss.ValueAndSlope(&f[2 * k], labels[k], &ref_slope[2 * k]);
  for (KernelPath path : PathsHere()) {
    ForceKernelPath(path);
    for (int n : {1, 2, 3, 4, 5, 8, 23}) {
      std::vector<double> value(n), slope(2 * n);
      loss.ValuesAndSlopes(f.data(), labels.data(), n, value.data(), slope.data());
      INFO(KernelPathName(path) << ", count " << n);
      CHECK(std::memcmp(value.data(), ref_value.data(), n * sizeof(double)) == 0);
      CHECK(std::memcmp(slope.data(), ref_slope.data(), 2 * n * sizeof(double)) == 0);
    }
  }
  ForceKernelPath(before);
}

TEST_CASE("Router noise is uniform below 1 in steps of 2^-24, fixed by its stream",
          "[chen][kernels]") {
  Rng a(42), b(42), c(43);
  const RowMat<float> x = RouterNoise(1001, 7, a), y = RouterNoise(1001, 7, b);
  const RowMat<float> z = RouterNoise(1001, 7, c), next = RouterNoise(1001, 7, a);
  CHECK(x == y);
  CHECK(x != z);
  CHECK(x != next);  // each call draws afresh
  CHECK(x.minCoeff() >= 0.0f);
  CHECK(x.maxCoeff() < 1.0f);
  CHECK(std::abs(x.mean() - 0.5) < 0.02);
  for (Eigen::Index i = 0; i < x.size(); ++i)
    REQUIRE(x.data()[i] * 0x1p24f == std::floor(x.data()[i] * 0x1p24f));
  // A prefix: N samples' noise is the first N rows of a larger draw from the same stream.
  Rng d(42);
  CHECK(RouterNoise(10, 7, d) == x.topRows(10));
}

TEST_CASE("The switch MoE's training pass has the same bits on every kernel path",
          "[chen][kernels][portable]") {
  const KernelPath before = ActiveKernelPath();
  ClusterSpec c;
  c.d = 50;
  c.P = 4;
  const int N = 203;  // 50 batches of four and three samples alone
  const Dataset data = ClusterModel(c, 4).Draw(Split::kTrain, N);
  const SwitchInput<float> in = MakeSwitchInput(data.x, c.P, /*interleave=*/true);
  int cases = 0;
  for (int M : {1, 3, 7, 8, 9, 16, 17})
    for (int J : {6, 16, 32})
      for (Gate gate : {Gate::kNoisyValue, Gate::kSoftmax}) {
        SwitchShape shape;
        shape.M = M;
        shape.J = J;
        shape.P = c.P;
        shape.d = c.d;
        shape.gate = gate;
        shape.load_balance = M % 2 == 1 ? 1e-3 : 0;
        Rng rng(5);
        SwitchMoe<float> model(shape, 0.05, rng);
        for (size_t i = 0; i < model.RouterGroup().size; ++i)
          model.params()[static_cast<Eigen::Index>(model.RouterGroup().begin + i)] =
              static_cast<float>(0.01 * rng.Normal());
        Rng noise_rng(9);
        const RowMat<float> noise = RouterNoise(N, M, noise_rng);
        const DoubleSoftmaxCrossEntropy<float> loss(2);
        SwitchPass<float> first;
        Vec<float> g_first;
        bool have_first = false;
        for (KernelPath path : PathsHere()) {
          ForceKernelPath(path);
          SwitchPass<float> pass;
          Vec<float> grad;
          model.ForwardBackward(in, data.label.data(), &noise, loss, pass, grad);
          if (!have_first) {
            first = pass;
            g_first = grad;
            have_first = true;
            CHECK(grad.norm() > 0);
            continue;
          }
          INFO(KernelPathName(path)
               << ": M = " << M << ", J = " << J << ", gate " << static_cast<int>(gate));
          CHECK(std::memcmp(&pass.loss, &first.loss, sizeof pass.loss) == 0);
          CHECK(pass.errors == first.errors);
          CHECK(pass.expert == first.expert);
          CHECK(SameBits(pass.gate, first.gate));
          CHECK(SameBits(pass.h, first.h));
          CHECK(SameBits(pass.z, first.z));
          CHECK(SameBits(grad, g_first));
        }
        ++cases;
      }
  ForceKernelPath(before);
  CHECK(cases == 7 * 3 * 2);
}

}  // namespace pmoe
