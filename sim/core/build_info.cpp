// The build's numerics identity, and a guard that refuses to start on a CPU lacking the
// instruction set the build was compiled for (instead of dying of an illegal instruction).
#include "pmoe/core/build_info.hpp"

#include <errno.h>  // program_invocation_short_name
#include <unistd.h>

#include <cstdlib>
#include <cstring>

// Referenced by the linker (sim/CMakeLists.txt) so that this file, and its check, is in every
// program that links the core.
extern "C" {
int pmoe_cpu_guard = 0;
}

namespace pmoe {
namespace {

#ifndef PMOE_BUILD_TARGET
#define PMOE_BUILD_TARGET "unknown"
#endif

// The instruction-set extensions the compiler could use for this build: they decide FMA
// contraction and vector widths, hence the bits.
constexpr const char* kCompiledIsa =
    ""
#if defined(__SSE4_2__)
    " sse4.2"
#endif
#if defined(__AVX__)
    " avx"
#endif
#if defined(__AVX2__)
    " avx2"
#endif
#if defined(__FMA__)
    " fma"
#endif
#if defined(__AVX512F__)
    " avx512f"
#endif
#if defined(__AVX512DQ__)
    " avx512dq"
#endif
#if defined(__AVX512BW__)
    " avx512bw"
#endif
#if defined(__AVX512VL__)
    " avx512vl"
#endif
    ;

// Each extension above and the name __builtin_cpu_supports knows it by, for the start-up check.
struct IsaCheck {
  bool compiled;
  const char* name;
};
constexpr IsaCheck kRequired[] = {
#if defined(__SSE4_2__)
    {true, "sse4.2"},
#endif
#if defined(__AVX__)
    {true, "avx"},
#endif
#if defined(__AVX2__)
    {true, "avx2"},
#endif
#if defined(__FMA__)
    {true, "fma"},
#endif
#if defined(__AVX512F__)
    {true, "avx512f"},
#endif
#if defined(__AVX512DQ__)
    {true, "avx512dq"},
#endif
#if defined(__AVX512BW__)
    {true, "avx512bw"},
#endif
#if defined(__AVX512VL__)
    {true, "avx512vl"},
#endif
    {false, ""}};

// Runs before any other static initializer, compiled for the baseline x86-64 whatever the
// build's -march, so that it can speak before an unsupported instruction is reached.
__attribute__((constructor(101), target("arch=x86-64"))) void RefuseUnsupportedCpu() {
  __builtin_cpu_init();
  for (const IsaCheck& isa : kRequired) {
    if (!isa.compiled) continue;
    bool supported = true;
    // __builtin_cpu_supports needs a literal, hence the chain.
    if (!std::strcmp(isa.name, "sse4.2"))
      supported = __builtin_cpu_supports("sse4.2");
    else if (!std::strcmp(isa.name, "avx"))
      supported = __builtin_cpu_supports("avx");
    else if (!std::strcmp(isa.name, "avx2"))
      supported = __builtin_cpu_supports("avx2");
    else if (!std::strcmp(isa.name, "fma"))
      supported = __builtin_cpu_supports("fma");
    else if (!std::strcmp(isa.name, "avx512f"))
      supported = __builtin_cpu_supports("avx512f");
    else if (!std::strcmp(isa.name, "avx512dq"))
      supported = __builtin_cpu_supports("avx512dq");
    else if (!std::strcmp(isa.name, "avx512bw"))
      supported = __builtin_cpu_supports("avx512bw");
    else if (!std::strcmp(isa.name, "avx512vl"))
      supported = __builtin_cpu_supports("avx512vl");
    // A test names one extension to treat as absent, to see this message on any machine.
    const char* lacks = std::getenv("PMOE_TEST_CPU_LACKS");
    if (lacks != nullptr && !std::strcmp(lacks, isa.name)) supported = false;
    if (supported) continue;
    const char* parts[] = {program_invocation_short_name,
                           ": error: this build was compiled for ",
                           PMOE_BUILD_TARGET,
                           " and uses ",
                           isa.name,
                           ", which this CPU lacks. Build on this kind "
                           "of node, or for every node with -DPMOE_MARCH=<the oldest node's "
                           "level, e.g. x86-64-v3> (README: Clusters)\n"};
    for (const char* p : parts) (void)!::write(STDERR_FILENO, p, std::strlen(p));
    ::_exit(4);
  }
}

std::string Compiler() {
#if defined(__clang__)
  return std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#else
  return "unknown";
#endif
}

}  // namespace

std::string NumericsBuild() {
  std::string isa = kCompiledIsa;
  if (!isa.empty()) isa.erase(0, 1);
  // row_kernels.cpp, dot_forward.cpp, topl_simd.cpp: AVX-512 where the CPU has it, else their
  // portable twins, which compute the same bits (kernel_path.hpp). Which ran is not part of it.
  const char* kernels = "avx512 or portable, same bits";
  // glibc picks its FMA variants of exp, log, sin, ... at run time on CPUs with FMA and AVX2.
  __builtin_cpu_init();
  const bool fma_libm = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
  return "compiler=" + Compiler() + "; target=" + PMOE_BUILD_TARGET +
         "; isa=" + (isa.empty() ? "baseline" : isa) + "; kernels=" + kernels +
         "; libm=" + (fma_libm ? "fma" : "sse2");
}

std::vector<std::pair<std::string, std::string>> SplitNumericsBuild(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> fields;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find("; ", start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const size_t eq = item.find('=');
    if (eq == std::string::npos)
      fields.emplace_back(item, "");
    else
      fields.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    start = end + 2;
  }
  return fields;
}

std::string DescribeBuildDifference(const std::string& a, const std::string& b,
                                    const std::string& a_name, const std::string& b_name) {
  if (a == b) return "";
  if (a.empty() || b.empty())
    return "no numerics build recorded in " + (a.empty() ? a_name : b_name) +
           " (written by a pmoe-sweep older than build records), \"" + (a.empty() ? b : a) +
           "\" in " + (a.empty() ? b_name : a_name);
  const auto fa = SplitNumericsBuild(a), fb = SplitNumericsBuild(b);
  std::string out;
  auto value = [](const auto& fields, const std::string& name) {
    for (const auto& [n, v] : fields)
      if (n == name) return v;
    return std::string("(none)");
  };
  std::vector<std::string> names;
  for (const auto& [n, v] : fa) names.push_back(n);
  for (const auto& [n, v] : fb)
    if (value(fa, n) == "(none)") names.push_back(n);
  for (const std::string& n : names) {
    const std::string va = value(fa, n), vb = value(fb, n);
    if (va != vb)
      out += (out.empty() ? "" : ", ") + n + " = " + va + " in " + a_name + ", " + vb + " in " +
             b_name;
  }
  return out.empty() ? "\"" + a + "\" in " + a_name + ", \"" + b + "\" in " + b_name : out;
}

}  // namespace pmoe
