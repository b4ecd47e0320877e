// SGD training and the SGD families' models in double precision, for the finite-difference
// tests only (see models_f64.cpp).
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "family/model_factory_impl.hpp"
#include "family/sgd_models.hpp"
#include "train/sgd_trainer_impl.hpp"

namespace pmoe {

// The double twin of each SGD family's NewModel (model_factory.hpp): the same construction
// (sgd_models.hpp), named by the family's kind.
std::unique_ptr<Model<double>> NewSgdModel(const SgdModelFamily& family, const ModelSpec& spec,
                                           ModelParts<double> parts, Rng& router) {
  const std::string kind = family.name();
  if (kind == "cnn") return NewCnn(std::move(parts));
  if (kind == "separate") return NewSeparateMoe(spec, std::move(parts), router);
  if (kind == "joint") return NewJointMoe(spec, std::move(parts), router);
  throw std::logic_error("no double-precision twin of model.kind = " + kind +
                         " (sim/f64/training_f64.cpp has cnn, separate and joint)");
}

template std::unique_ptr<Model<double>> MakeModel(const ModelSpec&, int, uint64_t, int);
template Evaluation Evaluate(Model<double>&, const PatchBlocks<double>&, const int*, int);
template bool MisclassifiesAny(Model<double>&, const PatchBlocks<double>&, const int*);
template TrainOutcome TrainSgd(Model<double>&, const PatchBlocks<double>&, const int*,
                               const SgdOptions&, Optimizer<double>&, Rng&);

}  // namespace pmoe
