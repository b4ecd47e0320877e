// Multiply-adds per sample, from MODEL.md §4's shapes and §9's cost table.
#include "flop_count.hpp"

namespace pmoe {

FlopCount NominalFlops(const TrialSpec& spec, int epochs) {
  const double n = spec.data.n, d = spec.data.d, m = spec.model.m, k = spec.model.k,
               l = spec.model.l, N = spec.N, N_test = spec.N_test;
  double forward = n * m * d, backward = n * m * d;  // CNN: every neuron on every patch
  double route = 0, router = 0;
  if (spec.model.kind == "separate") {
    forward = backward = l * m * d;  // each expert's neurons on its l routed patches
    route = k * n * d;               // routing values, once per sample (routers frozen)
    // y_i sum_j x_i^(j) once per sample, then one add per coordinate per sample per epoch.
    router = (N * n * d + spec.model.router_epochs * N * d) / 2;
  } else if (spec.model.kind == "joint") {
    forward = n * k * d + l * m * d;   // gating values on all patches, experts on the routed
    backward = l * k * d + l * m * d;  // the gating gradient flows through the selected only
  }
  FlopCount count;
  count.train = 2 * (epochs * N * (forward + backward) + router);
  count.eval = 2 * ((N + N_test) * forward + (N + N_test) * route);
  return count;
}

}  // namespace pmoe
