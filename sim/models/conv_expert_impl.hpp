// The two-output convolution of MODEL.md §8, direct loops over blocks of kLanes filters: a
// block's accumulators fit in one AVX-512 register (float) and the filters (d, kLanes) stay in
// L1, so the products need neither a copy of the routed samples nor a packed matrix. A J that is
// not a multiple of kLanes ends with blocks of one filter.
// The template definitions: conv_expert.cpp instantiates them in float for the tools, sim/f64 in
// double for the finite-difference tests (the tools do not carry the double code).
#pragma once

#include <algorithm>

#include "pmoe/core/errors.hpp"
#include "pmoe/models/conv_expert.hpp"

namespace pmoe {
namespace {

// Filters [j0, j0 + L) of every sample. The block's values are fixed-size Eigen arrays: one
// vector register each, whatever the compiler's view of aliasing.
template <typename T, int L>
using Lanes = Eigen::Array<T, L, 1>;

// 1 for the lanes of filters j0 + l that feed output 0 (those below J / 2), 0 for the others.
template <typename B>
B FeedsFirstOutput(int half, int j0) {
  const int split = std::clamp(half - j0, 0, static_cast<int>(B::RowsAtCompileTime));
  B mask = B::Zero();
  for (int l = 0; l < split; ++l) mask[l] = 1;
  return mask;
}

// Up to kRows patches of one sample at a time: their accumulators are independent chains (an
// FMA's latency is hidden) and each filter row loaded or each gradient row stored serves them all.
constexpr int kRows = 4;

template <typename T, int L, int R>
void ForwardRows(const T* xr, int d, const T* W, int J, int j0, const Lanes<T, L>& bias,
                 Activation act, T* a, Lanes<T, L>& sum) {
  using V = Lanes<T, L>;
  V acc[R];
  for (int r = 0; r < R; ++r) acc[r] = bias;
  for (int c = 0; c < d; ++c) {
    const V w = Eigen::Map<const V>(W + static_cast<size_t>(c) * J + j0);
    for (int r = 0; r < R; ++r) acc[r] += xr[static_cast<size_t>(r) * d + c] * w;
  }
  for (int r = 0; r < R; ++r) {
    Eigen::Map<V>(a + static_cast<size_t>(r) * J) = acc[r];
    sum += act == Activation::kCubic ? (acc[r] * acc[r] * acc[r]).eval() : acc[r];
  }
}

template <typename T, int L>
void ForwardBlock(const RowMat<T>& x, int P, const int* ids, int count, const T* W, const T* b,
                  int J, int j0, Activation act, T* A, T* f) {
  using V = Lanes<T, L>;
  const int d = static_cast<int>(x.cols());
  const V to_first = FeedsFirstOutput<V>(J / 2, j0);
  const V bias = Eigen::Map<const V>(b + j0);
  for (int k = 0; k < count; ++k) {
    V sum = V::Zero();
    const T* xs = x.data() + static_cast<Eigen::Index>(ids[k]) * P * d;
    T* as = A + static_cast<size_t>(k) * P * J + j0;
    int p = 0;
    for (; p + kRows <= P; p += kRows)
      ForwardRows<T, L, kRows>(xs + static_cast<size_t>(p) * d, d, W, J, j0, bias, act,
                               as + static_cast<size_t>(p) * J, sum);
    for (; p < P; ++p)
      ForwardRows<T, L, 1>(xs + static_cast<size_t>(p) * d, d, W, J, j0, bias, act,
                           as + static_cast<size_t>(p) * J, sum);
    const T first = (sum * to_first).sum();
    f[2 * k] += first;
    f[2 * k + 1] += sum.sum() - first;
  }
}

template <typename T, int L, int R>
void BackwardRows(const T* xr, int d, const T* a, int J, const Lanes<T, L>& slope, Activation act,
                  T* gW, Lanes<T, L>& bias) {
  using V = Lanes<T, L>;
  V g[R];
  for (int r = 0; r < R; ++r) {
    const V ar = Eigen::Map<const V>(a + static_cast<size_t>(r) * J);
    g[r] = act == Activation::kCubic ? (3 * slope * ar * ar).eval() : slope;
    bias += g[r];
  }
  for (int c = 0; c < d; ++c) {
    V update = xr[c] * g[0];
    for (int r = 1; r < R; ++r) update += xr[static_cast<size_t>(r) * d + c] * g[r];
    Eigen::Map<V>(gW + static_cast<size_t>(c) * J) += update;
  }
}

template <typename T, int L>
void BackwardBlock(const RowMat<T>& x, int P, const int* ids, int count, const T* A, const T* df,
                   int J, int j0, Activation act, T* gW, T* gb) {
  using V = Lanes<T, L>;
  const int d = static_cast<int>(x.cols());
  const V to_first = FeedsFirstOutput<V>(J / 2, j0);
  V bias = V::Zero();
  for (int k = 0; k < count; ++k) {
    const V slope = df[2 * k] * to_first + df[2 * k + 1] * (1 - to_first);
    const T* xs = x.data() + static_cast<Eigen::Index>(ids[k]) * P * d;
    const T* as = A + static_cast<size_t>(k) * P * J + j0;
    int p = 0;
    for (; p + kRows <= P; p += kRows)
      BackwardRows<T, L, kRows>(xs + static_cast<size_t>(p) * d, d, as + static_cast<size_t>(p) * J,
                                J, slope, act, gW + j0, bias);
    for (; p < P; ++p)
      BackwardRows<T, L, 1>(xs + static_cast<size_t>(p) * d, d, as + static_cast<size_t>(p) * J, J,
                            slope, act, gW + j0, bias);
  }
  Eigen::Map<V>(gb + j0) = bias;
}

}  // namespace

template <typename T>
void ConvForwardBackward(const RowMat<T>& x, int P, const int* ids, int count, const T* W,
                         const T* b, int J, Activation act, T* f, ConvSlope<T>& slope, T* gW, T* gb,
                         std::vector<T>& work, bool accumulate) {
  using V = Lanes<T, kLanes>;
  using V1 = Lanes<T, 1>;
  const int d = static_cast<int>(x.cols());
  const int half = J / 2;
  if (!accumulate) {
    std::fill(gW, gW + static_cast<size_t>(d) * J, T(0));
    std::fill(gb, gb + J, T(0));
  }
  work.resize(static_cast<size_t>(P) * J);
  T* a = work.data();
  for (int k = 0; k < count; ++k) {
    const T* xs = x.data() + static_cast<Eigen::Index>(ids[k]) * P * d;
    // Forward, block by block as ConvForward, the pre-activations kept in `work` (L1).
    T out[2] = {0, 0};
    auto forward = [&](auto lanes, int j0) {
      using B = decltype(lanes);
      constexpr int L = B::RowsAtCompileTime;
      const B to_first = FeedsFirstOutput<B>(half, j0);
      const B bias = Eigen::Map<const B>(b + j0);
      B sum = B::Zero();
      int p = 0;
      for (; p + kRows <= P; p += kRows)
        ForwardRows<T, L, kRows>(xs + static_cast<size_t>(p) * d, d, W, J, j0, bias, act,
                                 a + static_cast<size_t>(p) * J + j0, sum);
      for (; p < P; ++p)
        ForwardRows<T, L, 1>(xs + static_cast<size_t>(p) * d, d, W, J, j0, bias, act,
                             a + static_cast<size_t>(p) * J + j0, sum);
      const T first = (sum * to_first).sum();
      out[0] += first;
      out[1] += sum.sum() - first;
    };
    int j0 = 0;
    for (; j0 + kLanes <= J; j0 += kLanes) forward(V(), j0);
    for (; j0 < J; ++j0) forward(V1(), j0);
    f[2 * k] = out[0];
    f[2 * k + 1] = out[1];
    // The loss's slope at this sample's outputs, then its gradient, the rows still in L1.
    T df[2];
    slope(k, out[0], out[1], df[0], df[1]);
    auto backward = [&](auto lanes, int j0) {
      using B = decltype(lanes);
      constexpr int L = B::RowsAtCompileTime;
      const B to_first = FeedsFirstOutput<B>(half, j0);
      const B s = df[0] * to_first + df[1] * (1 - to_first);
      B bias = Eigen::Map<B>(gb + j0);
      int p = 0;
      for (; p + kRows <= P; p += kRows)
        BackwardRows<T, L, kRows>(xs + static_cast<size_t>(p) * d, d,
                                  a + static_cast<size_t>(p) * J + j0, J, s, act, gW + j0, bias);
      for (; p < P; ++p)
        BackwardRows<T, L, 1>(xs + static_cast<size_t>(p) * d, d,
                              a + static_cast<size_t>(p) * J + j0, J, s, act, gW + j0, bias);
      Eigen::Map<B>(gb + j0) = bias;
    };
    j0 = 0;
    for (; j0 + kLanes <= J; j0 += kLanes) backward(V(), j0);
    for (; j0 < J; ++j0) backward(V1(), j0);
  }
}

namespace {

// kShared: the four samples share one set of parameters (the single model): each filter row is
// loaded once, and each gradient row is held in a register while the four samples' updates are
// added to it in turn, instead of being stored and loaded again between them (a chain through
// memory). The same sums in the same order either way.
template <typename T, bool kShared>
void ConvForwardBackward4Impl(const ConvBatch<T>& batch, int d, int J, Activation act,
                              ConvSlope<T>& slope, int k0, T* a) {
  using V = Lanes<T, kLanes>;
  constexpr int P = kBatchPatches, S = kBatchSamples, R = S * P;
  const int half = J / 2;
  // The batch's pointers in locals: through the struct, every store to a gradient row could
  // change them as far as the compiler knows, and it reloaded all eight per row of the backward
  // loop (measured: 8 loads per 16 FMAs). The arithmetic is unchanged.
  const T* x[S];
  const T* W[S];
  T* gW[S];
  for (int s = 0; s < S; ++s) {
    x[s] = batch.x[s];
    W[s] = batch.W[s];
    gW[s] = batch.gW[s];
  }
  T out[S][2] = {};
  for (int j0 = 0; j0 < J; j0 += kLanes) {
    const V to_first = FeedsFirstOutput<V>(half, j0);
    // Sixteen independent chains (four samples x four patches), each the sum ForwardRows forms.
    V acc[R];
    for (int s = 0; s < S; ++s)
      for (int p = 0; p < P; ++p) acc[s * P + p] = Eigen::Map<const V>(batch.b[s] + j0);
    for (int c = 0; c < d; ++c)
      for (int s = 0; s < S; ++s) {
        const V w = Eigen::Map<const V>(W[kShared ? 0 : s] + static_cast<size_t>(c) * J + j0);
        for (int p = 0; p < P; ++p) acc[s * P + p] += x[s][c * P + p] * w;
      }
    for (int s = 0; s < S; ++s) {
      V sum = V::Zero();
      for (int p = 0; p < P; ++p) {
        const int r = s * P + p;
        Eigen::Map<V>(a + static_cast<size_t>(r) * J + j0) = acc[r];
        sum += act == Activation::kCubic ? (acc[r] * acc[r] * acc[r]).eval() : acc[r];
      }
      const T first = (sum * to_first).sum();
      out[s][0] += first;
      out[s][1] += sum.sum() - first;
    }
  }
  T df[S][2];
  slope.Batch(k0, S, &out[0][0], &df[0][0]);
  for (int j0 = 0; j0 < J; j0 += kLanes) {
    const V to_first = FeedsFirstOutput<V>(half, j0);
    V g[R];
    for (int s = 0; s < S; ++s) {
      const V sl = df[s][0] * to_first + df[s][1] * (1 - to_first);
      V bias = Eigen::Map<V>(batch.gb[s] + j0);
      for (int p = 0; p < P; ++p) {
        const int r = s * P + p;
        const V ar = Eigen::Map<const V>(a + static_cast<size_t>(r) * J + j0);
        g[r] = act == Activation::kCubic ? (3 * sl * ar * ar).eval() : sl;
        bias += g[r];
      }
      Eigen::Map<V>(batch.gb[s] + j0) = bias;
    }
    // Sample after sample (two of them may share parameters), each sample's four patches summed
    // first, as BackwardRows adds them.
    for (int c = 0; c < d; ++c) {
      V row;
      if (kShared) row = Eigen::Map<V>(gW[0] + static_cast<size_t>(c) * J + j0);
      for (int s = 0; s < S; ++s) {
        V update = x[s][c * P] * g[s * P];
        for (int p = 1; p < P; ++p) update += x[s][c * P + p] * g[s * P + p];
        if (kShared)
          row += update;
        else
          Eigen::Map<V>(gW[s] + static_cast<size_t>(c) * J + j0) += update;
      }
      if (kShared) Eigen::Map<V>(gW[0] + static_cast<size_t>(c) * J + j0) = row;
    }
  }
}

}  // namespace

template <typename T>
void ConvForwardBackward4(const ConvBatch<T>& batch, int d, int J, Activation act,
                          ConvSlope<T>& slope, int k0, T* a) {
  bool shared = true;
  for (int s = 1; s < kBatchSamples; ++s)
    shared = shared && batch.W[s] == batch.W[0] && batch.b[s] == batch.b[0] &&
             batch.gW[s] == batch.gW[0] && batch.gb[s] == batch.gb[0];
  if (shared)
    ConvForwardBackward4Impl<T, true>(batch, d, J, act, slope, k0, a);
  else
    ConvForwardBackward4Impl<T, false>(batch, d, J, act, slope, k0, a);
}

template <typename T>
RowMat<T> InterleavePatches(const RowMat<T>& x, int P) {
  PMOE_CHECK(P > 0 && x.rows() % P == 0) << x.rows() << " rows, P = " << P;
  const Eigen::Index N = x.rows() / P, d = x.cols();
  RowMat<T> out(N, d * P);
  for (Eigen::Index i = 0; i < N; ++i)
    for (int p = 0; p < P; ++p)
      for (Eigen::Index c = 0; c < d; ++c) out(i, c * P + p) = x(i * P + p, c);
  return out;
}

template <typename T>
void ConvForward(const RowMat<T>& x, int P, const int* ids, int count, const T* W, const T* b,
                 int J, Activation act, T* A, T* f) {
  std::fill(f, f + 2 * static_cast<size_t>(count), T(0));
  int j0 = 0;
  for (; j0 + kLanes <= J; j0 += kLanes)
    ForwardBlock<T, kLanes>(x, P, ids, count, W, b, J, j0, act, A, f);
  for (; j0 < J; ++j0) ForwardBlock<T, 1>(x, P, ids, count, W, b, J, j0, act, A, f);
}

template <typename T>
void ConvBackward(const RowMat<T>& x, int P, const int* ids, int count, const T* A, const T* df,
                  int J, Activation act, T* gW, T* gb) {
  std::fill(gW, gW + static_cast<size_t>(x.cols()) * J, T(0));
  int j0 = 0;
  for (; j0 + kLanes <= J; j0 += kLanes)
    BackwardBlock<T, kLanes>(x, P, ids, count, A, df, J, j0, act, gW, gb);
  for (; j0 < J; ++j0) BackwardBlock<T, 1>(x, P, ids, count, A, df, J, j0, act, gW, gb);
}

}  // namespace pmoe
