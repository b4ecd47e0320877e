// `pmoe-sweep missing CONFIG.ini --shards K [--out F] [--retry N]`: for each shard of a sharded
// sweep, whether its file is complete, incomplete (how many trials short), absent, queued or
// running in Slurm, being written now or of another sweep; then the exact command that finishes
// just the shards that need it (the generated array script when there is one, else `pmoe-sweep
// run --shard I/K`), or the merge command when all are complete. Every path in a printed command
// is quoted for the shell (ShellQuote). Exit status 0 when every shard is complete, 1 otherwise.
//
// --retry N (the generated merge job passes its attempt number): shards that ran and failed for
// a reason other than bad input or scancel (their logs/shard-I.state) are resubmitted with
// more memory and time, and a merge job after them with attempt N+1, while N is below the
// script's retries.
#include <iostream>

#include "commands.hpp"
#include "pmoe/cli/file_check.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "shard_survey.hpp"
#include "slurm_looks.hpp"

namespace pmoe {
namespace {

// The shard lines and the advice as one JSON object (--json).
void RenderMissingJson(const std::string& config, const ShardSurvey& survey,
                       const MissingAdvice& advice, std::ostream& out) {
  JsonWriter w(out);
  w.BeginObject().Field("config", config).Field("shards", survey.shards);
  w.Field("merged", survey.merged).Key("shard_list").BeginArray();
  for (const ShardLine& l : survey.lines)
    w.BeginObject()
        .Field("shard", l.index)
        .Field("file", l.file)
        .Field("condition", ConditionName(l.condition))
        .Field("detail", l.detail)
        .EndObject();
  w.EndArray().Field("complete", advice.status == 0).Field("advice", advice.text).EndObject();
  out << "\n";
}

}  // namespace

std::vector<cli::Option> ShardSetOptions() {
  return {
      {"shards", "K", "the number of shards the sweep was split into (required)", {}, ""},
      {"out",
       "F",
       "the merged result file given to run/slurm --out (default results/NAME.h5)",
       {},
       ""},
  };
}

int RequiredShards(const cli::Parsed& args, const cli::Command& command) {
  if (!args.Has("shards"))
    throw ConfigError("command line: " + command.name +
                      " needs --shards K (usage: " + command.Usage() + ")");
  return ParseShard("1/" + *args.Get("shards")).count;
}

cli::Command MissingCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "missing";
  c.operands = "CONFIG.ini";
  c.min_operands = c.max_operands = 1;
  c.summary =
      "which shards are complete, incomplete, absent, running or of another sweep, "
      "and the command that finishes them; exit 1 until all are complete";
  c.options = ShardSetOptions();
  c.options.insert(c.options.end(),
                   {
                       {"json", "", "print the shards and the advice as one JSON object", {}, ""},
                       {"resubmit",
                        "",
                        "(a precision look chain) submit the shards the current look lacks and "
                        "a decide job after them",
                        {},
                        ""},
                       {"retry",
                        "N",
                        "(the merge job's) resubmit failed tasks, attempt N, with more time and "
                        "memory",
                        {},
                        ""},
                   });
  return c;
}

// Parse, compute (SurveyShards, AdviseMissing: shard_survey.hpp), render.
int RunMissingCommand(const cli::Parsed& args, const std::string& command_line) {
  MissingInput in;
  in.config = args.operands.at(0);
  in.out = args.Get("out").value_or("");
  const bool json = args.Has("json");
  const int shards = RequiredShards(args, MissingCommand());
  if (args.Has("retry"))
    in.retry = static_cast<int>(ParseNumber("--retry", *args.Get("retry"), 0, true, 100,
                                            "the merge job's attempt number, 0 or more"));
  cli::RequireConfigFile(in.config);
  // A precision config's look chain (slurm_looks.hpp): its shards hold parts of looks.
  in.tool = command_line.substr(0, command_line.find(' '));
  if (IsLookChain(PrepareSweep(in.config, in.out, {}).merged_path, shards))
    return LookMissing(in.config, in.out, shards, args.Has("resubmit"), in.tool);
  if (args.Has("resubmit"))
    throw ConfigError("missing --resubmit: " + in.config + " is not a look chain of " +
                      std::to_string(shards) + " shards (run the command missing prints)");
  const ShardSurvey survey = SurveyShards(in.config, in.out, shards, [&](const ShardLine& l) {
    if (!json)
      std::cout << "shard " << l.index << "/" << shards << " " << l.file << ": " << l.detail
                << "\n";
  });
  const MissingAdvice advice = AdviseMissing(survey, in);
  if (!json) std::cout << advice.text;
  if (advice.stopped_by) std::rethrow_exception(advice.stopped_by);
  if (json) RenderMissingJson(in.config, survey, advice, std::cout);
  return advice.status;
}

}  // namespace pmoe
