// ExpD and Log1pD: exp_log1p_lanes.hpp's e^x and log(1 + x) on one double (numerics version 8),
// the same bits as every lane of the vector kernels. Within 1 ulp of libm over the whole range
// (tests/train/exp_log1p_test.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "pmoe/core/exp_log1p_lanes.hpp"

namespace pmoe {

// The lane operations on one double, plain C++ (std::fma; bit operations through memcpy).
struct ScalarLanes {
  using V = double;
  using Mask = bool;
  static uint64_t Bits(double x) {
    uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
  }
  static double FromBits(uint64_t b) {
    double x;
    std::memcpy(&x, &b, sizeof x);
    return x;
  }
  static double Set(double a) { return a; }
  static double Add(double a, double b) { return a + b; }
  static double Sub(double a, double b) { return a - b; }
  static double Mul(double a, double b) { return a * b; }
  static double Div(double a, double b) { return a / b; }
  static double Fma(double a, double b, double c) { return std::fma(a, b, c); }
  static bool Lt(double a, double b) { return a < b; }
  static bool Gt(double a, double b) { return a > b; }
  static bool Le(double a, double b) { return a <= b; }
  static bool Eq(double a, double b) { return a == b; }
  static bool Unordered(double a, double b) { return std::isunordered(a, b); }
  static bool Or(bool a, bool b) { return a || b; }
  static double Select(bool m, double a, double b) { return m ? a : b; }
  static double ShiftLeft52(double a) { return FromBits(Bits(a) << 52); }
  static double ShiftRight52(double a) { return FromBits(Bits(a) >> 52); }
  static double AddBits(double a, uint64_t b) { return FromBits(Bits(a) + b); }
  static double AndBits(double a, uint64_t b) { return FromBits(Bits(a) & b); }
  static double OrBits(double a, uint64_t b) { return FromBits(Bits(a) | b); }
};

inline double ExpD(double x) { return ExpLanes<ScalarLanes>(x); }
inline double Log1pD(double x) { return Log1pLanes<ScalarLanes>(x); }

}  // namespace pmoe
