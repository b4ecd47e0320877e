#include "slurm_cluster.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "pmoe/core/shell_quote.hpp"

namespace pmoe {

std::string RunCommand(const std::string& command, bool* ok, bool with_errors) {
  FILE* pipe = ::popen((command + (with_errors ? " 2>&1" : " 2>/dev/null")).c_str(), "r");
  *ok = false;
  if (pipe == nullptr) return "";
  std::string output;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe)) output += buf;
  *ok = ::pclose(pipe) == 0;
  return output;
}

int SlurmMaxArraySize() {
  bool ok = false;
  const std::string text = RunCommand("scontrol show config", &ok);
  if (!ok) return 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("MaxArraySize", 0) == 0) {
      const size_t eq = line.find('=');
      if (eq == std::string::npos) return 0;
      return std::atoi(line.c_str() + eq + 1);
    }
  return 0;
}

int SlurmMaxNodeCpus(const std::string& partition) {
  bool ok = false;
  const std::string text = RunCommand(
      "sinfo -h -o %c" + (partition.empty() ? std::string() : " -p " + ShellQuote(partition)), &ok);
  if (!ok) return 0;
  int most = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    // "%c" prints "4" or, for a mix, "2+".
    const int cpus = std::atoi(line.c_str());
    if (cpus > most) most = cpus;
  }
  return most;
}

SlurmQueue QueuedShards(const std::string& tag) {
  SlurmQueue queue;
  bool ok = false;
  // One line per array task (-r), pending ones too; a chunk submitted with an offset carries it
  // in its comment: "TAG+OFFSET".
  const std::string text = RunCommand("squeue -h -r -o '%i|%T|%k'", &ok);
  if (!ok) return queue;
  queue.known = true;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string id, state, comment;
    std::getline(fields, id, '|');
    std::getline(fields, state, '|');
    std::getline(fields, comment, '|');
    const size_t underscore = id.find('_');
    if (comment == tag && underscore == std::string::npos) {  // the merge job
      queue.merge_job = id;
      queue.merge_state = state;
      continue;
    }
    if (comment.compare(0, tag.size(), tag) != 0 || underscore == std::string::npos) continue;
    int offset = 0;
    if (comment.size() > tag.size()) {
      if (comment[tag.size()] != '+') continue;  // another sweep's tag that begins like ours
      offset = std::atoi(comment.c_str() + tag.size() + 1);
    }
    const int shard = std::atoi(id.c_str() + underscore + 1) + offset;
    queue.state[shard] = state;
    queue.job[shard] = id;
  }
  return queue;
}

}  // namespace pmoe
