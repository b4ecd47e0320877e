// Runs a shell command for the tool tests and captures its exit status, stdout and stderr.
#pragma once

#include <string>

namespace pmoe::test {

struct CommandResult {
  int status = -1;  // exit status, or -1 if it did not exit normally
  std::string out;  // stdout
  std::string err;  // stderr
};

CommandResult RunCommand(const std::string& command);

// Starts `command` (through /bin/sh, which execs it, so the pid is the command's own) with its
// output sent to `log`; returns its pid.
int SpawnCommand(const std::string& command, const std::string& log);

// Waits for a spawned command; returns its exit status, or 128 + signal if a signal ended it.
int WaitFor(int pid);

// A fresh, empty directory under the build tree, private to this process.
std::string FreshDirectory(const std::string& name);

}  // namespace pmoe::test
