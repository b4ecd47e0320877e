// Feasibility of data model A: each check below is one inequality of MODEL.md §2, and its failure
// message names the inequality with the numbers that broke it, then the setting to change and
// its feasible bound with the other settings as they are ("data.delta_r must be less than
// 0.680876 with these ..."), so a user finds the feasible range without trial and error.
#include "pmoe/data/pattern_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "pmoe/core/errors.hpp"
#include "pmoe/data/class_pairs.hpp"

namespace pmoe {
namespace {

std::string Num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

void Require(bool ok, const std::string& inequality, const std::string& numbers,
             const std::string& bound) {
  if (!ok)
    throw InfeasibleError("infeasible data model: " + inequality + " violated: " + numbers + "; " +
                          bound);
}

std::string Int(int x) { return std::to_string(x); }

// Default: half of p, at least one set toward each side of every trained pair.
int ConfuserSets(const DataSpec& s, int K, int pairs) {
  if (s.p_confuser >= 0) return s.p_confuser;
  return K > 0 ? std::max(2 * pairs, s.p / 2) : 0;
}

// Confuser center offset a in (a_lo, a_hi] (MODEL.md §2, "Confuser sets").
void PlaceConfusers(PatternPlan& plan) {
  const DataSpec& s = plan.spec;
  plan.a_lo = plan.dprime / plan.L + s.radius;
  plan.a_hi = std::min(2.0 * (s.delta_r - s.radius) / plan.L, 1.0);
  Require(plan.a_lo < plan.a_hi,
          "delta_r > (1 - delta_d)/4 + radius*(1 + ||o1-o2||/2) (a confuser set within delta_r "
          "whose members are all delta'-closer; needed when l_star > 1)",
          "delta_r = " + Num(s.delta_r) + " <= " + Num(plan.dprime / 2.0) + " + " + Num(s.radius) +
              "*" + Num(1.0 + plan.L / 2.0) + " = " +
              Num(plan.dprime / 2.0 + s.radius * (1.0 + plan.L / 2.0)) + " (feasible a interval (" +
              Num(plan.a_lo) + ", " + Num(plan.a_hi) + "] is empty)",
          plan.a_lo < 1.0
              ? "data.delta_r must be more than " +
                    Num(plan.dprime / 2.0 + s.radius * (1.0 + plan.L / 2.0)) +
                    " with these data.delta_d and data.radius"
              : "no data.delta_r is feasible with these data.delta_d and data.radius: lower "
                "data.radius below " +
                    Num((1.0 - plan.dprime / plan.L)) + " or data.delta_d");
  plan.a = plan.a_lo + s.confuser_strength * (plan.a_hi - plan.a_lo);
  plan.confusers_outrank = (plan.a - s.radius) * plan.L > 1.0 - s.delta_d;
}

// The setting to change when pattern sets overlap, and its bound. Confuser centers sit at offset
// a = a_lo + confuser_strength * (a_hi - a_lo), a_hi = min(2 (delta_r - radius) / L, 1), and
// their caps are disjoint iff a < a_max: solved for delta_r, delta_r < radius + L/2 * (a_lo +
// (a_max - a_lo) / confuser_strength), binding only when that a_hi is below 1.
std::string CapsBound(const PatternPlan& plan, double closest, double a_max) {
  const DataSpec& s = plan.spec;
  if (a_max > 1.0 || plan.K == 0)  // the confusers cannot collide: the radius alone is too large
    return "data.radius must be less than " + Num(closest / 2.0);
  if (plan.a_lo >= a_max)
    return "no data.delta_r is feasible with these data.delta_d and data.radius: lower "
           "data.radius or data.delta_d";
  const double a_hi_max = plan.a_lo + (a_max - plan.a_lo) / s.confuser_strength;
  if (a_hi_max >= 1.0)  // cannot happen while a_hi <= 1 and a >= a_max, kept for clarity
    return "data.confuser_strength must be less than " +
           Num((a_max - plan.a_lo) / (plan.a_hi - plan.a_lo));
  return "data.delta_r must be less than " + Num(s.radius + plan.L / 2.0 * a_hi_max) +
         " with these data.delta_d, data.radius and data.confuser_strength (or lower "
         "data.confuser_strength below " +
         Num((a_max - plan.a_lo) / (plan.a_hi - plan.a_lo)) + ")";
}

// Caps of radius r around unit centers are disjoint iff the centers are more than 2r apart.
// Confuser centers a u_ij + sqrt(1 - a^2) v of one direction of one pair are sqrt(2 (1 - a^2))
// apart; of two pairs sharing a class (c odd), where |<u_ij, u_jk>| = 1/2, at least
// sqrt(2 - a^2); of disjoint pairs, or neutral ones, sqrt(2) or more.
void RequireDisjointCaps(const PatternPlan& plan) {
  const DataSpec& s = plan.spec;
  int per_direction = 0;
  for (int q = 0; q < plan.pairs; ++q) {
    const int first = ConfuserSetsTowardFirst(plan, q);
    per_direction = std::max({per_direction, first, ConfuserSetsOfPair(plan, q) - first});
  }
  double closest = 2.0;
  double a_max = 2.0;  // the largest confuser offset a whose caps stay disjoint (2: any a)
  if (per_direction >= 2) {
    closest = std::sqrt(2.0 * (1.0 - plan.a * plan.a));
    a_max = std::sqrt(std::max(0.0, 1.0 - 2.0 * s.radius * s.radius));
  } else if (plan.classes % 2 == 1 && plan.n_confuser >= 2) {
    closest = std::sqrt(2.0 - plan.a * plan.a);
    a_max = std::sqrt(std::max(0.0, 2.0 - 4.0 * s.radius * s.radius));
  } else if (s.p >= 2) {
    closest = std::min(closest, std::sqrt(2.0));
  }
  Require(closest > 2.0 * s.radius, "||c_i - c_j|| > 2*radius (disjoint pattern sets)",
          "closest centers are " + Num(closest) + " apart, 2*radius = " + Num(2.0 * s.radius),
          CapsBound(plan, closest, a_max));
}

}  // namespace

int ConfuserSetsOfPair(const PatternPlan& plan, int q) {
  return plan.n_confuser / plan.pairs + (q < plan.n_confuser % plan.pairs ? 1 : 0);
}

int ConfuserSetsTowardFirst(const PatternPlan& plan, int q) {
  return (ConfuserSetsOfPair(plan, q) + 1) / 2;
}

PatternPlan PlanPatternModel(const DataSpec& s) {
  PatternPlan plan;
  plan.spec = s;
  plan.classes = s.c;
  plan.pairs = static_cast<int>(RouterPairs(s.c).size());
  plan.K = s.l_star - 1;
  plan.L = std::sqrt(2.0 * (1.0 - s.delta_d));
  plan.dprime = (1.0 - s.delta_d) / 2.0;
  plan.theta_max = 2.0 * std::asin(s.radius / 2.0);
  plan.n_confuser = ConfuserSets(s, plan.K, plan.pairs);
  plan.n_confuser_o1 = (plan.n_confuser + 1) / 2;
  plan.n_neutral = s.p - plan.n_confuser;

  Require(s.l_star <= s.n, "l_star <= n",
          "l_star = " + std::to_string(s.l_star) + ", n = " + std::to_string(s.n),
          "data.l_star must be at most data.n = " + Int(s.n));
  Require(plan.n_confuser <= s.p, "p_confuser <= p",
          "p_confuser = " + std::to_string(plan.n_confuser) + ", p = " + std::to_string(s.p),
          "data.p_confuser must be at most data.p = " + Int(s.p));
  // Equiangular o_1..o_c at delta_d: their Gram matrix (1 - delta_d) I + delta_d 11^T is
  // positive semi-definite iff delta_d >= -1/(c - 1).
  if (plan.classes > 2)
    Require(s.delta_d >= -1.0 / (plan.classes - 1),
            "delta_d >= -1/(c - 1) (c equiangular unit vectors at inner product delta_d)",
            "delta_d = " + Num(s.delta_d) + ", c = " + std::to_string(plan.classes) +
                ", -1/(c - 1) = " + Num(-1.0 / (plan.classes - 1)),
            "data.delta_d must be at least " + Num(-1.0 / (plan.classes - 1)) +
                " with c = " + Int(plan.classes) + " classes");
  if (plan.K > 0 && plan.classes == 2)
    Require(plan.n_confuser >= 2,
            "p_confuser >= 2 (a confuser set toward each of o1, o2) when "
            "l_star > 1",
            "p_confuser = " + std::to_string(plan.n_confuser) +
                ", l_star = " + std::to_string(s.l_star),
            "data.p_confuser must be at least 2 (and at most data.p - 1) while data.l_star > 1");
  if (plan.K > 0 && plan.classes > 2)
    Require(plan.n_confuser >= 2 * plan.pairs,
            "p_confuser >= 2 * pairs (a confuser set toward each class of each of the " +
                std::to_string(plan.pairs) + " trained class pairs) when l_star > 1",
            "p_confuser = " + std::to_string(plan.n_confuser) +
                ", c = " + std::to_string(plan.classes) + ", l_star = " + std::to_string(s.l_star),
            "data.p_confuser must be at least " + Int(2 * plan.pairs) +
                " with c = " + Int(plan.classes) + " classes while data.l_star > 1");
  const int neutral_patches = s.n - 1 - (s.confusers == "uniform" ? 0 : plan.K);
  if (neutral_patches > 0)
    Require(plan.n_neutral >= 1,
            "p - p_confuser >= 1 (a neutral set for the irrelevant "
            "patches that are not confusers)",
            "p = " + std::to_string(s.p) + ", p_confuser = " + std::to_string(plan.n_confuser),
            "data.p must be at least " + Int(plan.n_confuser + 1) +
                " with p_confuser = " + Int(plan.n_confuser));
  if (plan.classes == 2)
    Require(s.d >= s.p + 2, "d >= p + 2 (o1, o2 and p orthogonal center directions)",
            "d = " + std::to_string(s.d) + ", p = " + std::to_string(s.p),
            "data.d must be at least data.p + 2 = " + Int(s.p + 2));
  else
    Require(s.d >= s.p + plan.classes, "d >= p + c (o_1..o_c and p orthogonal center directions)",
            "d = " + std::to_string(s.d) + ", p = " + std::to_string(s.p) +
                ", c = " + std::to_string(plan.classes),
            "data.d must be at least data.p + c = " + Int(s.p + plan.classes));
  if (plan.n_neutral > 0) {
    Require(s.radius * plan.L <= plan.dprime,
            "radius*||o1-o2|| <= delta' = (1 - delta_d)/2 (neutral sets are not delta'-closer)",
            Num(s.radius) + "*" + Num(plan.L) + " = " + Num(s.radius * plan.L) + " > " +
                Num(plan.dprime),
            "data.radius must be at most " + Num(plan.dprime / plan.L) +
                " with data.delta_d = " + Num(s.delta_d));
    Require(s.radius <= s.delta_r, "radius <= delta_r (neutral sets within delta_r)",
            "radius = " + Num(s.radius) + ", delta_r = " + Num(s.delta_r),
            "data.delta_r must be at least data.radius = " + Num(s.radius));
  }
  if (plan.K > 0) PlaceConfusers(plan);
  RequireDisjointCaps(plan);
  return plan;
}

}  // namespace pmoe
