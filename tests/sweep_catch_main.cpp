// Catch2's main for the tests that read sweep configs: the work sources are registered first, as
// pmoe-sweep's main does (config_section.hpp), so that a [precision] section reads as there.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "pmoe/precision/precision_section.hpp"

int main(int argc, char* argv[]) {
  pmoe::RegisterPrecisionTargets();
  return Catch::Session().run(argc, argv);
}
