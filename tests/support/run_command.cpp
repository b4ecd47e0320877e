// Shell-out helper for tests that exercise the tools as users run them.
#include "support/run_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace pmoe::test {

CommandResult RunCommand(const std::string& command) {
  static int calls = 0;
  const std::string dir = FreshDirectory("run_command_" + std::to_string(++calls));
  const std::string out_path = dir + "/stdout", err_path = dir + "/stderr";
  const int raw = std::system((command + " >" + out_path + " 2>" + err_path).c_str());
  CommandResult result;
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  auto slurp = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
  };
  result.out = slurp(out_path);
  result.err = slurp(err_path);
  return result;
}

int SpawnCommand(const std::string& command, const std::string& log) {
  const std::string line = "exec " + command + " >>" + log + " 2>&1";
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

int WaitFor(int pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

std::string FreshDirectory(const std::string& name) {
  // CTest runs test cases in parallel processes: a directory per process keeps them apart.
  const std::string path = std::string(PMOE_TEST_TMP) + "/" + name + "." + std::to_string(getpid());
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  return path;
}

}  // namespace pmoe::test
