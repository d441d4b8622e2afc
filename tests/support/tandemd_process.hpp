#pragma once
// TandemdProcess: a tandemd started for one test, on a free loopback port with
// a fresh data directory; stopped (SIGTERM, then SIGKILL) and its directory
// removed on destruction. Tests connect through url() or conninfo().

#include <string>
#include <vector>

#include <sys/types.h>

namespace tandem::testing {

class TandemdProcess {
 public:
  explicit TandemdProcess(std::vector<std::string> extra_args = {});
  // Serves an existing data directory (e.g. another process's, after it
  // stopped) instead of a fresh one; the directory is left in place.
  TandemdProcess(std::vector<std::string> extra_args, std::string data_dir);
  ~TandemdProcess();
  TandemdProcess(const TandemdProcess&) = delete;
  TandemdProcess& operator=(const TandemdProcess&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  // libpq conninfo for `user` (default materialize).
  std::string conninfo(const std::string& user = "materialize") const;
  std::string url(const std::string& user = "materialize") const;
  const std::string& data_dir() const { return data_dir_; }
  // Sends SIGTERM and waits; returns the exit status (or -1).
  int stop();
  // Everything the server logged so far.
  std::string log() const;

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string dir_;
  std::string data_dir_;
  std::string log_path_;
  bool owns_data_dir_ = true;
  void start(std::vector<std::string> extra_args);
};

// A port that was free a moment ago (bound to port 0 and released).
int free_port();

}  // namespace tandem::testing
