// The [adaptive] section as the sweep engine sees it: its keys (adaptive_config.hpp), its checks
// once the file is read, and the source that runs it.
#include "pmoe/sweep/adaptive/adaptive_section.hpp"

#include <memory>

#include "pmoe/sweep/adaptive/adaptive_config.hpp"
#include "pmoe/sweep/adaptive/adaptive_source.hpp"
#include "pmoe/sweep/grid/config_section.hpp"
#include "pmoe/sweep/run/sweep_setup.hpp"

namespace pmoe {
namespace {

// The settings live in the config (SweepConfig::adaptive), where the identity, the merge and the
// [precision] section read them, and where a resumed sweep puts those its journal records; the
// section only fills them in and makes the source from them.
class AdaptiveSection : public ConfigSection {
 public:
  void Set(const std::string& path, const std::string& key, const std::string& value) override {
    SetAdaptiveKey(path, key, value, settings_);
  }

  void Finish(const std::string& /*path*/, bool trials_set, SweepConfig& config) override {
    config.adaptive = settings_;
    FinishAdaptive(config, trials_set);
  }

  // The identity (SweepIdentity::adaptive) already records every setting.
  void Annotate(ResultMeta& /*meta*/) const override {}

  std::unique_ptr<WorkSource> MakeSource(const SweepSetup& setup) const override {
    return std::make_unique<AdaptiveSource>(setup.cells, *setup.config.adaptive, setup.shard);
  }

 private:
  AdaptiveSettings settings_;
};

}  // namespace

void RegisterAdaptiveSearch() {
  RegisterWorkSource("adaptive", [] { return std::make_unique<AdaptiveSection>(); });
}

}  // namespace pmoe
