// Work sources registered with the sweep engine rather than named by it. The adaptive search
// ([adaptive], adaptive_section.hpp) and a layer above the engine (precision targets) each
// register a section of the sweep config ([precision]) with a factory; the
// config reader hands that section its keys, and the runner asks the finished section for its work
// source, so that the engine includes nothing of the layers that build on it (docs/ARCHITECTURE.md
// "Layers"). Registration is an explicit call from a tool's main (RegisterAdaptiveSearch,
// RegisterPrecisionTargets), not a static initialiser, which a static library or a unity build may
// drop.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pmoe {

struct ResultMeta;
struct SweepConfig;
struct SweepSetup;
class WorkSource;

class ConfigSection {
 public:
  virtual ~ConfigSection() = default;

  // Sets `key` (without "SECTION."); ConfigError naming the file, the key and what was expected.
  virtual void Set(const std::string& path, const std::string& key, const std::string& value) = 0;

  // After every key of the file: checks what one key cannot and sets what the section decides of
  // the config (trials: the most one cell may get). `trials_set`: the file gave trials itself.
  virtual void Finish(const std::string& path, bool trials_set, SweepConfig& config) = 0;

  // What the result file's metadata records of the section, at the start of a run.
  virtual void Annotate(ResultMeta& meta) const = 0;

  // The work source of a setup whose config holds this section.
  virtual std::unique_ptr<WorkSource> MakeSource(const SweepSetup& setup) const = 0;
};

using ConfigSectionFactory = std::function<std::unique_ptr<ConfigSection>()>;

// Keys "SECTION.key" of a config go to a section `make` returns. Registering a section again
// replaces its factory (so a registration may run more than once). Not thread-safe: call it
// before anything reads a config.
void RegisterWorkSource(const std::string& section, ConfigSectionFactory make);

// The registered sections, in the order they were first registered.
std::vector<std::string> RegisteredSections();

// A new section of that name; nullptr when none is registered.
std::unique_ptr<ConfigSection> MakeConfigSection(const std::string& section);

// The check of a config's [claims] declarations, registered by the layer that knows target
// statistics (RegisterPrecisionTargets), so that a wrong declaration is refused (ConfigError
// naming the file) when the config is read. Replaces an earlier registration.
using ClaimCheck = std::function<void(const SweepConfig& config)>;
void RegisterClaimCheck(ClaimCheck check);

// Runs the registered check; without one, [claims] is kept unchecked (it changes no trial).
void CheckClaims(const SweepConfig& config);

}  // namespace pmoe
