// Stand-ins for Slurm's commands, for tests that read what pmoe-sweep's Slurm scripts and
// commands would submit without a cluster (tests/slurm/ runs the same on a real one-node Slurm).
#pragma once

#include <string>

namespace pmoe::test {

// Writes DIR/bin/{sbatch,scontrol,squeue} and returns "PATH=DIR/bin:$PATH " to put before a
// command. sbatch logs its arguments to DIR/sbatch.log (one call a line) and prints job ids 100,
// 101, ...; scontrol logs its arguments to DIR/scontrol.log, and `scontrol show ...` prints
// DIR/scontrol.txt, failing (no controller answers) when there is none; squeue prints
// DIR/squeue.txt.
std::string SlurmStandIns(const std::string& dir);

// A two-cell, one-trial sweep config (separate pMoE and the CNN at N = 40, 60) at `path`.
void WriteTinySlurmSweep(const std::string& path);

// The whole file, "" when it cannot be read.
std::string ReadWholeFile(const std::string& path);

}  // namespace pmoe::test
