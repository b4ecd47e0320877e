// `pmoe-sweep merge OUT.h5 SHARD.h5...`: one result file from the shards of one sweep, identical
// in /cells and /trials to the file a single machine would have written. Refuses files of other
// sweeps, overlapping trials and missing ones, saying which.
#include <filesystem>
#include <iostream>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "pmoe/cli/file_check.hpp"
#include "pmoe/cli/tool.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/run/merge.hpp"

namespace pmoe {
namespace {

// Refuses an output that cannot be written or that is one of the files to merge.
void CheckMergeOutput(const std::vector<std::string>& files) {
  const std::string& out = files[0];
  for (const std::string& path : {out, out + ".tmp"})
    if (const std::string problem = OutputFileProblem(path); !problem.empty())
      throw ConfigError(path + ": " + problem + " (merge's OUT.h5 names the merged file)");
  for (size_t i = 1; i < files.size(); ++i)
    if (std::filesystem::exists(out) && std::filesystem::exists(files[i]) &&
        std::filesystem::equivalent(out, files[i]))
      throw ConfigError("merge: the output " + out + " is also one of the files to merge");
}

}  // namespace

cli::Command MergeCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "merge";
  c.operands = "OUT.h5 SHARD.h5...";
  c.min_operands = 2;
  c.max_operands = SIZE_MAX;
  c.summary = "one file from the shards of one sweep, identical to a single-machine run's";
  c.description =
      "Refuses files of other sweeps, overlapping trials and missing ones, saying which; an "
      "existing OUT.h5 of another sweep is only overwritten with --force.";
  c.options = {
      {"force", "", "overwrite an OUT.h5 of another sweep", {}, ""},
      {"json", "", "print {output, trials, cells, files} as JSON", {}, ""},
  };
  return c;
}

// Parse, compute (MergeShards: merge.hpp), write, render.
int RunMergeCommand(const cli::Parsed& args, const std::string& command_line) {
  const std::vector<std::string>& files = args.operands;
  for (size_t i = 1; i < files.size(); ++i) cli::RequireResultFile(files[i]);
  CheckMergeOutput(files);
  const std::string& out = files[0];
  MergeResult merged = MergeShards({files.begin() + 1, files.end()});
  const size_t trials = merged.rows.size(), cells = merged.cells.size(), from = merged.files;
  WriteMerged(out, std::move(merged), args.Has("force"), command_line);
  if (args.Has("json")) {
    JsonWriter(std::cout)
        .BeginObject()
        .Field("output", out)
        .Field("trials", trials)
        .Field("cells", cells)
        .Field("files", from)
        .EndObject();
    std::cout << "\n";
    return cli::kDone;
  }
  std::cout << out << ": " << trials << " trials of " << cells << " cells from " << from
            << " files\n";
  return cli::kDone;
}

}  // namespace pmoe
