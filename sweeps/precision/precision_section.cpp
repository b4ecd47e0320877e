// The [precision] section as the sweep engine sees it: its keys, its checks once the file is read,
// what the result file records of it and the source that runs it.
#include "pmoe/precision/precision_section.hpp"

#include <memory>

#include "pmoe/core/errors.hpp"
#include "pmoe/precision/claim_targets.hpp"
#include "pmoe/precision/precision_source.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/run/sweep_setup.hpp"

namespace pmoe {
namespace {

class PrecisionSection : public ConfigSection {
 public:
  const PrecisionConfig& config() const { return config_; }

  void Set(const std::string& path, const std::string& key, const std::string& value) override {
    SetPrecisionKey(path, key, value, config_);
  }

  void Finish(const std::string& path, bool trials_set, SweepConfig& config) override {
    if (!config_.claim.empty()) UseClaimTarget(path, config, config_);  // claim = b
    FinishPrecision(path, config_);
    if (config.adaptive) throw ConfigError(path + ": [precision] and [adaptive]: choose one");
    if (trials_set)
      throw ConfigError(path +
                        ": trials: a precision target decides its trials itself; set "
                        "precision.start and precision.budget instead");
    // A budget in CPU-hours becomes trials here, once the cells are known, so that every later
    // step (identity, plan, the targets) reads trials alike.
    if (config_.budget_hours > 0) {
      config.trials = 1;  // the grid's size check, before the budget is known
      config_.settings.budget = BudgetFromHours(ExpandGrid(config), config_, path);
    }
    // A cell may get every trial of the budget but the other cells' first look.
    config.trials = config_.settings.budget;
  }

  void Annotate(ResultMeta& meta) const override { meta.precision = PrecisionIdentity(config_); }

  std::unique_ptr<WorkSource> MakeSource(const SweepSetup& setup) const override {
    return std::make_unique<PrecisionSource>(setup.cells, config_, setup.shard, setup.config.path);
  }

 private:
  PrecisionConfig config_;
};

}  // namespace

void RegisterPrecisionTargets() {
  RegisterWorkSource("precision", [] { return std::make_unique<PrecisionSection>(); });
  RegisterClaimCheck([](const SweepConfig& config) { ClaimTargetsOf(config); });
}

const PrecisionConfig* PrecisionOf(const SweepConfig& config) {
  const auto* section = dynamic_cast<const PrecisionSection*>(config.section.get());
  return section ? &section->config() : nullptr;
}

}  // namespace pmoe
