// pmoe-analyze's commands and options, as --help and the generated reference show them.
#pragma once

#include "pmoe/cli/tool.hpp"

namespace pmoe {

cli::Tool AnalyzeTool();

}  // namespace pmoe
