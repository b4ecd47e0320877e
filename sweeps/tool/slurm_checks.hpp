// What `pmoe-sweep slurm` checks of its inputs before anything is measured, written or
// submitted: the site template's lines, the time limits the #SBATCH lines set, and the build
// that began the sweep (issue 44).
#pragma once

#include <string>
#include <vector>

namespace pmoe {

// Slurm sends --signal's USR1 up to 60 s before the time asked (its timer's resolution), so a
// task may get it 150 s before its limit; under this floor a task could do little else than
// save and requeue, again and again.
constexpr int kMinTaskMinutes = 5;

// The #SBATCH lines of a site template (--sbatch-file) appended to `extra`: a path that is not
// a regular file (a FIFO would block forever, a directory read as empty) and lines that are not
// #SBATCH directives are refused (ConfigError), so that nothing else slips into the scripts.
void ReadTemplate(const std::string& path, std::vector<std::string>* extra);

// Minutes of a Slurm time ("M", "M:S", "H:M:S", "D-H", "D-H:M", "D-H:M:S"); -1 when it is none
// of these; a large number for UNLIMITED.
int SlurmMinutes(const std::string& text);

// A time limit an #SBATCH line sets (--time=, --time, -t) obeys the same floor as --time.
void CheckTimeLines(const std::vector<std::string>& extra);

// The files of a sweep begun by another build (or numerics, or seed) are refused as `plan` and
// `run` refuse them: the scripts would run this build on them. Shard 1 reads the merged file
// too; the other shards are read only when their file or journal is there.
void RefuseAnotherBuild(const std::string& config, const std::string& out, int shards,
                        const std::string& merged);

}  // namespace pmoe
