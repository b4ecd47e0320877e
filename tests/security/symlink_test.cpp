// Issue 28, followed symlinks: a link planted at any path a tool writes (the result file, its
// journal and temp file, a shard file, the Slurm scripts, merge's output) is refused by name and
// its target left as it was; a file at the journal's path that is no journal of ours is moved
// aside with a message, never dropped.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pmoe/core/shell_quote.hpp"
#include "support/run_command.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;
using test::RunCommand;
using test::SweepCommand;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("A symlink at any path a tool writes is refused by name, and its target is untouched",
          "[security][symlink]") {
  const std::string dir = test::FreshDirectory("symlinks");
  std::ofstream(dir + "/c.ini") << "name = tiny\nseed = 3\ntrials = 1\nN_test = 100\n[model]\n"
                                   "epochs = 5\nm = 8\n[grid]\nmodel.kind = separate,cnn\n"
                                   "N = 40,60\n";
  const std::string config = dir + "/c.ini", out = dir + "/r.h5", victim = dir + "/victim";
  const std::string shard = dir + "/r.shards/shard-1-of-2.h5";
  const std::string run = "run " + config + " --out " + out;
  const std::string run_shard = "run " + config + " --shard 1/2 --out " + out;
  const std::string slurm = "slurm " + config + " --shards 2 --pilot 0 --out " + out;
  struct Case {
    std::string link, command;
  };
  const Case cases[] = {
      {out, run},
      {out, run + " --force"},
      {out + ".journal", run},
      {out + ".tmp", run},
      {shard, run_shard},
      {shard + ".journal", run_shard},
      {dir + "/r.slurm/array.sbatch", slurm},
      {dir + "/r.slurm/merge.sbatch", slurm},
  };
  for (const Case& c : cases) {
    INFO(c.link << " <- " << c.command);
    std::filesystem::remove_all(dir + "/r.shards");
    std::filesystem::remove_all(dir + "/r.slurm");
    for (const char* extra : {"", ".journal", ".tmp"}) std::filesystem::remove(out + extra);
    std::ofstream(victim) << "another user's file";
    std::filesystem::create_directories(std::filesystem::path(c.link).parent_path());
    std::filesystem::create_symlink(victim, c.link);
    const auto r = RunCommand(SweepCommand(c.command));
    INFO(r.out << r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains(c.link) && Contains("symbolic link"));
    CHECK(Slurp(victim) == "another user's file");
    CHECK(std::filesystem::is_symlink(c.link));
    std::filesystem::remove(c.link);
  }
  // merge's output.
  REQUIRE(RunCommand(SweepCommand(run_shard)).status == 0);
  REQUIRE(RunCommand(SweepCommand("run " + config + " --shard 2/2 --out " + out)).status == 0);
  std::ofstream(victim) << "another user's file";
  std::filesystem::create_symlink(victim, out);
  const auto merge = RunCommand(
      SweepCommand("merge " + out + " " + shard + " " + dir + "/r.shards/shard-2-of-2.h5"));
  CHECK(merge.status == 2);
  CHECK_THAT(merge.err, Contains(out) && Contains("symbolic link"));
  CHECK(Slurp(victim) == "another user's file");
}

TEST_CASE("A file at the journal's path that is not a journal is moved aside, never dropped",
          "[security][symlink][journal]") {
  const std::string dir = test::FreshDirectory("foreign_journal");
  const std::string config = test::WriteQuickSweep(dir, "fj", 1);
  const std::string out = dir + "/r.h5";
  for (const std::string& content :
       {std::string("notes"), std::string("x"), std::string(5000, 'y')}) {
    INFO(content.size() << " bytes");
    std::filesystem::remove(out);
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.path().string().find(".journal.damaged") != std::string::npos)
        std::filesystem::remove(entry.path());
    std::ofstream(out + ".journal") << content;
    const auto r = RunCommand(SweepCommand("run " + config + " --out " + out));
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK_THAT(r.err, Contains("moved to " + out + ".journal.damaged"));
    CHECK(Slurp(out + ".journal.damaged") == content);
  }
}

}  // namespace pmoe
