// What this build computes with: compiler, target instruction set, kernel path and the libm
// variant the CPU selects. Two builds that differ in any of these may give other bits for the
// same seed (FMA contraction, vector widths of reassociated sums, the kernels), so result files
// and journals record it and a sweep never resumes or merges across two of them.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pmoe {

// "compiler=GCC 12.2.0; target=znver3 (-march=native); isa=avx2 fma avx512f ...;
// kernels=avx512; libm=fma": one "name=value" field per thing that can change the bits.
std::string NumericsBuild();

// The (name, value) fields of a NumericsBuild() text, in order.
std::vector<std::pair<std::string, std::string>> SplitNumericsBuild(const std::string& text);

// "" when a and b are the same build, else the fields that differ, e.g.
// "kernels = avx512 in the file, eigen in this build".
std::string DescribeBuildDifference(const std::string& a, const std::string& b,
                                    const std::string& a_name, const std::string& b_name);

}  // namespace pmoe
