// Issue 28, commands injected into generated scripts: every path a tool writes into a Slurm
// script (commands, comments, #SBATCH lines) or prints as a command to paste stays one word
// whatever it holds (space, quotes, $(...), backquotes, ;, &, %), shown by running the scripts
// and the printed commands for real with stand-ins for sbatch and scontrol; and a path holding
// a newline, which no quoting makes safe, is refused by name before anything is written.
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

// The test's own quoting, for building its command lines (it must pass newlines through to
// the tool, which ShellQuote refuses): single quotes, each ' as '\''.
std::string Sh(const std::string& word) {
  std::string s = "'";
  for (char c : word) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return s + "'";
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A tiny sweep (4 cells x 1 trial) named `name`, its file at `path`.
void WriteTinySweep(const std::string& path) {
  std::ofstream(path) << "name = tiny\nseed = 3\ntrials = 1\nN_test = 100\n[model]\nepochs = 5\n"
                         "m = 8\n[grid]\nmodel.kind = separate,cnn\nN = 40,60\n";
}

// Stand-ins: sbatch logs each argument on its own line and prints a job id; scontrol logs too.
std::string StandIns(const std::string& dir) {
  const std::string bin = dir + "/bin";
  std::filesystem::create_directories(bin);
  std::ofstream(bin + "/sbatch") << "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done >> \"" << dir
                                 << "/sbatch.log\"\necho 77\n";
  std::ofstream(bin + "/scontrol") << "#!/bin/sh\necho \"$@\" >> \"" << dir << "/scontrol.log\"\n";
  for (const char* tool : {"/sbatch", "/scontrol"})
    std::filesystem::permissions(bin + tool, std::filesystem::perms::owner_all);
  return bin;
}

}  // namespace

TEST_CASE("ShellQuote keeps every byte in one word and refuses control characters",
          "[security][shell]") {
  for (const std::string word : {"plain/path.h5", "sp ace", "quo'te", "d\"q", "$(touch x)", "`x`",
                                 "a;b&c|d", "~user", "*?[]", "-dash", "", "100%", "'"}) {
    const auto echoed = RunCommand("printf '%s' " + ShellQuote(word));
    CHECK(echoed.out == word);
  }
  CHECK(ShellQuote("results/a.h5") == "results/a.h5");  // plain words stay readable
  CHECK_THROWS_WITH(ShellQuote("a\nb", "--out"), Contains("--out") && Contains("a newline"));
  CHECK_THROWS_WITH(ShellQuote("a\rb"), Contains("carriage return"));
  CHECK(CommentText("a\nrm -rf x") == "a\\nrm -rf x");
}

TEST_CASE("Hostile paths stay one word in every script line and printed command",
          "[security][shell][slurm]") {
  const std::string root = test::FreshDirectory("hostile_paths");
  const std::string bin = StandIns(root);
  int case_index = 0;
  for (const std::string weird : {"sp ace", "quo'te", "d\"q", "$(touch PWNED)", "`touch PWNED`",
                                  "a;touch PWNED&", "pct%x%A"}) {
    INFO("directory name: " << weird);
    const std::string dir = root + "/" + std::to_string(++case_index) + "/" + weird;
    std::filesystem::create_directories(dir);
    const std::string config = dir + "/c.ini", out = dir + "/r.h5";
    WriteTinySweep(config);
    std::filesystem::remove(root + "/sbatch.log");
    const std::string env = "cd " + ShellQuote(root) + " && PATH=" + ShellQuote(bin) + ":$PATH ";
    const auto wrote =
        RunCommand(env + SweepCommand("slurm " + ShellQuote(config) +
                                      " --shards 2 --pilot 0 --cpus 1 --out " + ShellQuote(out)));
    INFO(wrote.out << wrote.err);
    REQUIRE(wrote.status == 0);
    const std::string array = dir + "/r.slurm/array.sbatch", merge = dir + "/r.slurm/merge.sbatch";
    // Every #SBATCH line is one option to sbatch's parser (POSIX quoting, # comments), and the
    // log directory in --output is the real one, % escaped as %%.
    const auto sbatch_lines = RunCommand(
        "/usr/bin/python3 -c 'import shlex,sys\n"
        "for p in sys.argv[1:]:\n"
        "  for l in open(p):\n"
        "    if l.startswith(\"#SBATCH \"):\n"
        "      w = shlex.split(l[8:], comments=True)\n"
        "      assert len(w) == 1 and w[0].startswith(\"--\"), l\n"
        "      if w[0].startswith(\"--output=\"): print(w[0][9:])\n' " +
        ShellQuote(array) + " " + ShellQuote(merge));
    INFO(sbatch_lines.err);
    REQUIRE(sbatch_lines.status == 0);
    std::string logs = dir + "/r.slurm/logs";
    for (size_t at = logs.find('%'); at != std::string::npos; at = logs.find('%', at + 2))
      logs.insert(at, "%");
    CHECK_THAT(sbatch_lines.out, Contains(logs + "/%x-%A_%a.out") && Contains(logs + "/%x-%j.out"));
    // The printed submit command, pasted: sbatch gets the scripts' exact paths.
    const std::string printed = wrote.out.substr(wrote.out.find("submit with:\n  ") + 15);
    REQUIRE(RunCommand(env + "bash -c " + Sh(printed)).status == 0);
    CHECK(Slurp(root + "/sbatch.log") ==
          "--parsable\n" + array + "\n--dependency=afterany:77\n" + merge + "\n");
    // The array's two tasks and the merge job, run as Slurm runs them (bash, the task's
    // environment): the shards and the merged file land at the hostile paths.
    for (const char* task : {"1", "2"}) {
      const auto ran = RunCommand(env + "SLURM_ARRAY_TASK_ID=" + task +
                                  " SLURM_ARRAY_JOB_ID=9 SLURM_JOB_ID=9 bash " + ShellQuote(array));
      INFO(ran.out << ran.err);
      CHECK(ran.status == 0);
    }
    const auto merged = RunCommand(env + "bash " + ShellQuote(merge));
    INFO(merged.out << merged.err);
    CHECK(merged.status == 0);
    CHECK(std::filesystem::exists(out));
    // `missing` with the shards and the merged file gone prints run commands; pasted, they run
    // the shards. (With the merged file kept, they are complete in it: issue 44.)
    std::filesystem::remove_all(dir + "/r.slurm");
    std::filesystem::remove_all(dir + "/r.shards");
    std::filesystem::remove(out);
    const auto missing = RunCommand(env + SweepCommand("missing " + ShellQuote(config) +
                                                       " --shards 2 --out " + ShellQuote(out)));
    CHECK(missing.status == 1);
    std::istringstream lines(missing.out);
    int pasted = 0;
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("  ", 0) == 0 || line.rfind("then merge: ", 0) == 0) {
        const std::string command = line.substr(line.rfind("then merge: ", 0) == 0 ? 12 : 2);
        const auto r = RunCommand(env + "bash -c " + Sh(command));
        INFO(command << "\n" << r.err);
        CHECK(r.status == 0);
        ++pasted;
      }
    CHECK(pasted == 3);
    CHECK(std::filesystem::exists(dir + "/r.shards/shard-2-of-2.h5"));
  }
  // Nothing anywhere ran what a path held.
  CHECK(RunCommand("find " + ShellQuote(root) + " -name PWNED | grep -q .").status != 0);
}

TEST_CASE("A newline in a path or a name is refused by name before any script is written",
          "[security][shell][slurm]") {
  const std::string dir = test::FreshDirectory("newline_paths");
  const std::string config = dir + "/c.ini";
  WriteTinySweep(config);
  const auto out = RunCommand(SweepCommand("slurm " + Sh(config) +
                                           " --shards 2 --pilot 0 "
                                           "--out " +
                                           Sh(dir + "/x\ntouch PWNED\n.h5")));
  CHECK(out.status == 2);
  CHECK_THAT(out.err, Contains("--out") && Contains("a newline"));
  std::filesystem::create_directories(dir + "/a\nb");
  WriteTinySweep(dir + "/a\nb/c.ini");
  const auto cfg = RunCommand(SweepCommand("slurm " + Sh(dir + "/a\nb/c.ini") +
                                           " --shards 2 --pilot 0 --out " + Sh(dir + "/r.h5")));
  CHECK(cfg.status == 2);
  CHECK_THAT(cfg.err, Contains("config") && Contains("a newline"));
  const auto setup = RunCommand(SweepCommand(
      "slurm " + Sh(config) + " --shards 2 --pilot 0 --setup " + Sh("module load gcc\nrm -rf x")));
  CHECK(setup.status == 2);
  CHECK_FALSE(std::filesystem::exists(dir + "/r.slurm"));
  CHECK_FALSE(std::filesystem::exists(dir + "/results"));
  // Names: only a safe set of characters, from `name =` or the file's own name.
  std::ofstream(dir + "/bad name.ini") << "trials = 1\n[grid]\nN = 40\n";
  const auto stem = RunCommand(SweepCommand("plan " + Sh(dir + "/bad name.ini")));
  CHECK(stem.status == 2);
  CHECK_THAT(stem.err, Contains("name") && Contains("letters, digits"));
  std::ofstream(dir + "/n.ini") << "name = a$(x)\ntrials = 1\n[grid]\nN = 40\n";
  CHECK(RunCommand(SweepCommand("plan " + Sh(dir + "/n.ini"))).status == 2);
}

}  // namespace pmoe
