// Which release computes each numerics version, and what to say when a file's version is not
// this build's: files of an older version stay readable, but their trials are never grown or
// merged with this build's (they would mix two computations), so the message names the way out.
#pragma once

#include <string>

namespace pmoe {

// "pmoe-sim 0.1.0 (git commit 7a0ed56)" for a version an earlier release computes; "" for this
// build's version or one never released.
std::string ReleaseOfNumerics(int version);

// A parameter's name in this build for a name an older version's keys used (version 8 merged
// model.full_steps into model.max_steps); other names unchanged. Reading an older file's cells
// goes through it, so that its keys still parse.
std::string CurrentParamName(const std::string& name);

// Why rows of numerics `a` (in a_name) and `b` (in b_name) are not mixed, with the way out: rerun
// with this build into a new file, or use the release of the file's version. "" when a == b.
std::string DescribeNumericsDifference(int a, int b, const std::string& a_name,
                                       const std::string& b_name);

}  // namespace pmoe
