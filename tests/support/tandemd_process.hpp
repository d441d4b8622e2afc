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
  ~TandemdProcess();
  TandemdProcess(const TandemdProcess&) = delete;
  TandemdProcess& operator=(const TandemdProcess&) = delete;

  int port() const { return port_; }
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
};

// A port that was free a moment ago (bound to port 0 and released).
int free_port();

}  // namespace tandem::testing
