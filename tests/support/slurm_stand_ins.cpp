// Stand-ins for sbatch, scontrol and squeue (slurm_stand_ins.hpp).
#include "support/slurm_stand_ins.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace pmoe::test {

std::string SlurmStandIns(const std::string& dir) {
  const std::string bin = dir + "/bin";
  std::filesystem::create_directories(bin);
  std::ofstream(bin + "/sbatch") << "#!/bin/sh\necho \"$*\" >> " << dir << "/sbatch.log\n"
                                 << "n=$(wc -l < " << dir << "/sbatch.log)\necho $((99 + n))\n";
  std::ofstream(bin + "/scontrol")
      << "#!/bin/sh\necho \"$*\" >> " << dir << "/scontrol.log\n"
      << "case \"$1\" in show) cat " << dir << "/scontrol.txt 2>/dev/null ;; esac\n";
  std::ofstream(bin + "/squeue") << "#!/bin/sh\ncat " << dir << "/squeue.txt 2>/dev/null\n";
  for (const char* tool : {"/sbatch", "/scontrol", "/squeue"})
    std::filesystem::permissions(bin + tool, std::filesystem::perms::owner_all);
  return "PATH=" + bin + ":$PATH ";
}

void WriteTinySlurmSweep(const std::string& path) {
  std::ofstream(path) << "name = tiny\nseed = 3\ntrials = 1\nN_test = 100\n[model]\nepochs = 5\n"
                         "m = 8\n[grid]\nmodel.kind = separate,cnn\nN = 40,60\n";
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace pmoe::test
