#include "pmoe/sweep/grid/config_section.hpp"

#include <utility>

namespace pmoe {
namespace {

std::vector<std::pair<std::string, ConfigSectionFactory>>& Registry() {
  static std::vector<std::pair<std::string, ConfigSectionFactory>> registry;
  return registry;
}

}  // namespace

void RegisterWorkSource(const std::string& section, ConfigSectionFactory make) {
  for (auto& [name, factory] : Registry())
    if (name == section) {
      factory = std::move(make);
      return;
    }
  Registry().emplace_back(section, std::move(make));
}

std::vector<std::string> RegisteredSections() {
  std::vector<std::string> out;
  for (const auto& entry : Registry()) out.push_back(entry.first);
  return out;
}

ClaimCheck& RegisteredClaimCheck() {
  static ClaimCheck check;
  return check;
}

void RegisterClaimCheck(ClaimCheck check) { RegisteredClaimCheck() = std::move(check); }

void CheckClaims(const SweepConfig& config) {
  if (RegisteredClaimCheck()) RegisteredClaimCheck()(config);
}

std::unique_ptr<ConfigSection> MakeConfigSection(const std::string& section) {
  for (const auto& [name, factory] : Registry())
    if (name == section) return factory();
  return nullptr;
}

}  // namespace pmoe
