// The shared command-line layer (cli/): option tables, aliases, values that start with '-',
// "did you mean", operand counts, and the nearest-name rule used for config keys too.
#include <catch2/catch.hpp>

#include "pmoe/cli/command.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/suggest.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;

cli::Command Example() {
  cli::Command c;
  c.tool = "tool";
  c.name = "go";
  c.operands = "FILE...";
  c.min_operands = 1;
  c.max_operands = 2;
  c.summary = "an example";
  c.options = {{"checkpoint-seconds", "S", "seconds", {"checkpoint_seconds"}, ""},
               {"from", "X", "lower end", {}, ""},
               {"force", "", "a flag", {}, ""},
               {"where", "P=V", "repeatable", {}, ""}};
  return c;
}

std::string ErrorOf(const std::vector<std::string>& args,
                    const std::vector<cli::Command>& siblings = {}) {
  try {
    cli::Parse(Example(), args, siblings);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the option layer resolves aliases, keeps order and takes values starting with '-'",
          "[cli]") {
  const cli::Parsed p =
      cli::Parse(Example(), {"a.h5", "--checkpoint_seconds", "5", "--from", "-3", "--where=N=10",
                             "--force", "--where", "k=2", "b.h5"});
  CHECK(p.operands == std::vector<std::string>{"a.h5", "b.h5"});
  CHECK(p.Get("checkpoint-seconds") == std::optional<std::string>("5"));
  CHECK(p.Get("from") == std::optional<std::string>("-3"));
  CHECK(p.Has("force"));
  CHECK(p.All("where") == std::vector<std::string>{"N=10", "k=2"});
  CHECK_FALSE(p.help);
  CHECK(cli::Parse(Example(), {"x", "--help"}).help);
  CHECK(cli::Parse(Example(), {"-h"}).help);
  // After "--" everything is a file, even "--force".
  CHECK(cli::Parse(Example(), {"x", "--", "--force"}).operands ==
        std::vector<std::string>{"x", "--force"});
}

TEST_CASE("the option layer refuses what the table does not allow, saying what it expected",
          "[cli]") {
  CHECK_THAT(ErrorOf({"x", "--checkpoint-second", "5"}),
             Contains("unrecognised option --checkpoint-second of tool go") &&
                 Contains("did you mean --checkpoint-seconds?") && Contains("tool go --help"));
  CHECK_THAT(ErrorOf({"x", "--frobnicate"}), Contains("--frobnicate") && !Contains("did you mean"));
  CHECK_THAT(ErrorOf({"x", "--from"}), Contains("--from needs a value"));
  CHECK_THAT(ErrorOf({"x", "--force=yes"}), Contains("force"));
  CHECK_THAT(ErrorOf({}), Contains("missing FILE..."));
  CHECK_THAT(ErrorOf({"a", "b", "c"}), Contains("unexpected argument \"c\""));
  cli::Command other = Example();
  other.name = "table";
  other.options.push_back({"rows", "P", "rows", {}, ""});
  CHECK_THAT(ErrorOf({"x", "--rows", "k"}, {Example(), other}),
             Contains("one of the options of the table command, not of go"));
}

TEST_CASE("help and the reference come from the same table", "[cli]") {
  const std::string help = cli::Help(Example());
  CHECK_THAT(help, Contains("usage: tool go FILE...") && Contains("--checkpoint-seconds") &&
                       Contains("--checkpoint_seconds") && Contains("--help"));
  const std::string md = cli::Markdown(Example());
  CHECK_THAT(md, Contains("### `tool go`") && Contains("| `--from X` | lower end |"));
  CHECK(Example().Usage() ==
        "tool go FILE... [--checkpoint-seconds S] [--from X] [--force] [--where P=V]");
}

TEST_CASE("nearest names: typos, transpositions, case and bare parameter names", "[cli]") {
  CHECK(EditDistance("stauts", "status") == 1);
  CHECK(EditDistance("N_test", "n-test") == 0);
  CHECK(NearestName("stauts", {"run", "status", "merge"}) == "status");
  CHECK(NearestName("delta_d", {"data.delta_d", "data.delta_r"}) == "data.delta_d");
  CHECK(NearestName("frobnicate", {"run", "status", "merge"}).empty());
  CHECK(DidYouMeanParam("model.epocs") == " (did you mean \"model.epochs\"?)");
  CHECK(DidYouMeanParam("model.width").empty());
}

}  // namespace pmoe
