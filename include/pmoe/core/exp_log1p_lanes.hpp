// e^x and log(1 + x) in double without a library call (numerics version 8: the switch MoE's
// loss), written once over a lane type: `O` gives the operations (O::Add, O::Fma, O::Select, bit
// operations, ...) on O::V, one double (ScalarLanes, exp_log1p.hpp) or four (the AVX2 kernel,
// sim/train/double_softmax_lanes_avx2.cpp). Every operation is a correctly rounded IEEE one, each
// spelled out (the only products that feed a sum are exact or inside an fma), so every lane of
// every O computes the same bits: the portable, AVX2 and AVX-512 paths agree.
// Only templates here: the AVX2 file includes this inside its target region.
#pragma once

#include <cstdint>

namespace pmoe {

// e^x: x = k ln2 + r with |r| <= ln2 / 2 (Cody-Waite: k by the 1.5 2^52 shifter, ln2 in two
// parts, both products in fmas), e^r by its Taylor polynomial to degree 13 (truncation below
// 2^-60, Estrin's scheme), then 2^k applied as two exact factors 2^k1 2^k2, k1 + k2 = k (each a
// normal double for |k| <= 1077, so the only rounding near the range's ends is the last product's:
// overflow to inf above 709.78, gradual underflow to 0 below -745.13). NaN in, NaN out; inf gives
// inf, -inf 0.
template <class O>
typename O::V ExpLanes(typename O::V x) {
  using V = typename O::V;
  const V lo = O::Set(-746.0), hi = O::Set(710.0);  // e^-746 rounds to 0, e^710 to inf
  V xc = O::Select(O::Lt(x, lo), lo, x);            // NaN stays NaN: the comparisons are false
  xc = O::Select(O::Gt(xc, hi), hi, xc);
  const V shifter = O::Set(0x1.8p52);  // adding it rounds to an integer
  const V kd = O::Sub(O::Fma(xc, O::Set(0x1.71547652b82fep0), shifter), shifter);
  V r = O::Fma(kd, O::Set(-0x1.62e42fefa39efp-1), xc);  // ln2, high part
  r = O::Fma(kd, O::Set(-0x1.abc9e3b39803fp-56), r);    // ln2, low part
  // e^r = 1 + (r + r^2 Q(r)), Q(r) = sum_{j=2..13} r^(j-2) / j! by Estrin's scheme (a short
  // chain of fmas; its rounding errors are scaled down by r^2 <= 0.121).
  constexpr double kFactorial[] = {1,       1,        2,         6,           24,
                                   120,     720,      5040,      40320,       362880,
                                   3628800, 39916800, 479001600, 6227020800.0};  // 0! .. 13!
  auto c = [&](int j) { return O::Set(1.0 / kFactorial[j]); };
  const V r2 = O::Mul(r, r), r4 = O::Mul(r2, r2);
  const V q0 = O::Fma(c(3), r, c(2)), q1 = O::Fma(c(5), r, c(4)), q2 = O::Fma(c(7), r, c(6));
  const V q3 = O::Fma(c(9), r, c(8)), q4 = O::Fma(c(11), r, c(10)), q5 = O::Fma(c(13), r, c(12));
  const V t0 = O::Fma(q1, r2, q0), t1 = O::Fma(q3, r2, q2), t2 = O::Fma(q5, r2, q4);
  const V Q = O::Fma(O::Fma(t2, r4, t1), r4, t0);
  const V p = O::Add(O::Set(1.0), O::Fma(r2, Q, r));
  // k1 = k / 2 rounded (exact), k2 = k - k1; 2^k1 from the bits of shifter + 1023 + k1.
  const V k1 = O::Sub(O::Fma(kd, O::Set(0.5), shifter), shifter);
  const V k2 = O::Sub(kd, k1);
  const V s1 = O::ShiftLeft52(O::Add(k1, O::Set(0x1.8p52 + 1023)));
  const V s2 = O::ShiftLeft52(O::Add(k2, O::Set(0x1.8p52 + 1023)));
  return O::Mul(O::Mul(p, s1), s2);
}

// log(1 + x) (fdlibm's / musl's log1p without its branches): u = 1 + x = 2^k m with m in
// [sqrt(2)/2, sqrt(2)), c the rounding error of 1 + x relative to u, f = m - 1, s = f / (2 + f),
// log m = f - f^2/2 + s (f^2/2 + R(s^2)) with fdlibm's minimax R. -1 gives -inf, below -1 NaN,
// inf inf, NaN NaN, +-0 itself.
template <class O>
typename O::V Log1pLanes(typename O::V x) {
  using V = typename O::V;
  const V one = O::Set(1.0);
  const V u = O::Add(one, x);
  const V hu = O::AddBits(u, static_cast<uint64_t>(0x3ff00000 - 0x3fe6a09e) << 32);
  // k = (hu >> 52) - 1023 as a double: the 11 exponent bits below 2^52's, minus 2^52 + 1023.
  const V dk = O::Sub(O::OrBits(O::ShiftRight52(hu), 0x4330000000000000ULL), O::Set(0x1p52 + 1023));
  // The error of 1 + x: exact differences for k < 2, 1 - (u - x) above; nothing left from k = 54.
  V c = O::Select(O::Lt(dk, O::Set(2.0)), O::Sub(x, O::Sub(u, one)), O::Sub(one, O::Sub(u, x)));
  c = O::Select(O::Lt(dk, O::Set(54.0)), O::Div(c, u), O::Set(0.0));
  const V m =
      O::AddBits(O::AndBits(hu, 0x000fffffffffffffULL), static_cast<uint64_t>(0x3fe6a09e) << 32);
  const V f = O::Sub(m, one);
  const V half_f = O::Mul(O::Set(0.5), f);  // exact
  const V s = O::Div(f, O::Add(O::Set(2.0), f));
  const V z = O::Mul(s, s), w = O::Mul(z, z);
  const V t1 = O::Mul(
      w, O::Fma(w, O::Fma(w, O::Set(1.531383769920937332e-01), O::Set(2.222219843214978396e-01)),
                O::Set(3.999999999940941908e-01)));
  const V t2 = O::Fma(
      w,
      O::Fma(w, O::Fma(w, O::Set(1.479819860511658591e-01), O::Set(1.818357216161805012e-01)),
             O::Set(2.857142874366239149e-01)),
      O::Set(6.666666666666735130e-01));
  const V R = O::Fma(z, t2, t1);
  // s (f^2/2 + R) + (k ln2_lo + c) - f^2/2 + f + k ln2_hi, every product inside an fma.
  V result = O::Fma(s, O::Fma(half_f, f, R), O::Fma(dk, O::Set(1.90821492927058770002e-10), c));
  result = O::Add(O::Fma(O::Mul(O::Set(-0.5), f), f, result), f);
  result = O::Fma(dk, O::Set(6.93147180369123816490e-01), result);
  // The edges the formula does not reach: -1 (u = 0), below -1, +inf, NaN, and -0 (its sign).
  const V inf = O::Set(__builtin_inf()), minus_one = O::Set(-1.0);
  const V edge = O::Select(O::Eq(x, minus_one), O::Set(-__builtin_inf()),
                           O::Select(O::Lt(x, minus_one), O::Set(__builtin_nan("")), x));
  const auto at_edge = O::Or(O::Or(O::Le(x, minus_one), O::Eq(x, inf)),
                             O::Or(O::Unordered(x, x), O::Eq(x, O::Set(0.0))));
  return O::Select(at_edge, edge, result);
}

// The published switch MoE's two-class loss (MODEL.md §8) at logits mine = f_label and other:
// p = sigmoid(mine - other), e = exp(1 - 2p), L = log(1 + e), dL/df_label = -2 p (1 - p) e /
// (1 + e) into g.
template <class O>
typename O::V DoubleSoftmaxTwoLanes(typename O::V mine, typename O::V other, typename O::V& g) {
  using V = typename O::V;
  const V one = O::Set(1.0);
  const V p = O::Div(one, O::Add(one, ExpLanes<O>(O::Sub(other, mine))));
  const V e = ExpLanes<O>(O::Sub(one, O::Mul(O::Set(2.0), p)));  // 2 p exact: fused or not
  g = O::Div(O::Mul(O::Mul(O::Mul(O::Set(-2.0), p), O::Sub(one, p)), e), O::Add(one, e));
  return Log1pLanes<O>(e);
}

}  // namespace pmoe
