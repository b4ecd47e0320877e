// Issue 28, inputs: a config reads the same with LF, CRLF or CR line ends; an overflowed router
// makes its trial diverged (as an overflow in the experts does) while a trial that does not
// overflow records the very same numbers; an IDX symlink loop is an error, not an abort; and a
// result file another process holds open for writing is named as such, never "--force".
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"
#include "pmoe/trial/trial.hpp"
#include "support/run_command.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;
using test::RunCommand;
using test::SweepCommand;

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

TEST_CASE("LF, CRLF and CR line ends read the same config", "[security][config]") {
  const std::string lf =
      "# a comment\nname = ends\nseed = 9\ntrials = 3\n[model]\nepochs = 7\n[grid]\n"
      "model.kind = separate,cnn\nN = 40,80\n";
  const SweepConfig a = ParseSweepConfig("lf.ini", lf);
  for (const std::string& end : {std::string("\r\n"), std::string("\r")}) {
    const SweepConfig b = ParseSweepConfig("x.ini", Replace(lf, "\n", end));
    CHECK(b.name == "ends");
    CHECK(b.trials == 3);
    const auto ca = ExpandGrid(a), cb = ExpandGrid(b);
    REQUIRE(ca.size() == 4);
    REQUIRE(cb.size() == ca.size());
    for (size_t i = 0; i < ca.size(); ++i) CHECK(ca[i].key == cb[i].key);
  }
}

TEST_CASE("An overflowed router is diverged, and a trial that does not overflow is unchanged",
          "[security][trial]") {
  TrialSpec spec;
  spec.model.kind = "separate";
  spec.N = 200;
  spec.N_test = 300;
  SetParamValue(spec, "model.epochs", 20);
  const TrialResult plain = RunTrial(spec, 0, 1);
  CHECK(plain.status == TrialStatus::kOk);
  for (const double sigma : {1e308, 1e38}) {
    INFO("sigma_r " << sigma);
    TrialSpec big = spec;
    SetParamValue(big, "model.sigma_r", sigma);
    const TrialResult r = RunTrial(big, 0, 1);
    CHECK(r.status == TrialStatus::kDiverged);
    CHECK_FALSE(r.success);
    CHECK_THAT(r.message, Contains("routing values overflow") || Contains("router weights"));
  }
  // Large but far from float's limit: routing as before, bit for bit the same as a run of the
  // code before the check (the check only reads): the same numbers twice, and ok.
  TrialSpec large = spec;
  SetParamValue(large, "model.sigma_r", 1e20);
  const TrialResult x = RunTrial(large, 0, 1), y = RunTrial(large, 0, 1);
  CHECK(x.status == TrialStatus::kOk);
  CHECK(x.test_acc == y.test_acc);
}

TEST_CASE("An IDX directory with a symlink loop is an error naming it, not an abort",
          "[security][idx]") {
  const std::string dir = test::FreshDirectory("idx_loop");
  std::filesystem::create_symlink(dir + "/train-images-idx3-ubyte",
                                  dir + "/train-images-idx3-ubyte");
  std::filesystem::create_symlink(dir + "/loop", dir + "/loop");
  for (const std::string& idx : {dir, dir + "/loop"}) {
    const auto r = RunCommand(std::string(PMOE_SIM_PATH) + " --data.model image --data.idx_dir " +
                              idx + " --trials 1");
    INFO(r.out << r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains(idx) && Contains("symbolic links"));
  }
}

TEST_CASE("A result file held open for writing by another process is not called damaged",
          "[security][store]") {
  const std::string dir = test::FreshDirectory("held_open");
  const std::string config = test::WriteQuickSweep(dir, "held", 1);
  const std::string out = dir + "/r.h5";
  REQUIRE(RunCommand(SweepCommand("run " + config + " --out " + out)).status == 0);
  const int fd = ::open(out.c_str(), O_RDWR);
  REQUIRE(::flock(fd, LOCK_EX) == 0);  // what HDF5 takes when a program opens it for writing
  const auto r = RunCommand(SweepCommand("run " + config + " --out " + out));
  ::close(fd);
  INFO(r.err);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("another process holds this file open") && !Contains("--force"));
}

}  // namespace pmoe
