#pragma once
// A tandemd child process serving one test file.
//
// start() creates a fresh temporary directory (data dir + server log), picks
// a free loopback port, launches
//   tandemd --listen 127.0.0.1:PORT --data-dir DIR/data [extra args...]
// with stdout/stderr going to DIR/tandemd.log, and waits up to
// kReadyTimeout for the server to accept connections. stop() (also run by
// the destructor) sends SIGTERM, then SIGKILL after kStopTimeout, reaps the
// child and removes the directory.
//
// Threading: owned and used by one thread.

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace tandem::slt {

class ServerProcess {
 public:
  static constexpr std::chrono::seconds kReadyTimeout{10};
  static constexpr std::chrono::seconds kStopTimeout{5};

  struct Config {
    std::string tandemd_path;
    std::vector<std::string> extra_args;
  };

  // Returns nullptr and sets *error (including the log's tail) on failure.
  static std::unique_ptr<ServerProcess> start(const Config& config, std::string* error);

  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // postgresql://materialize@127.0.0.1:PORT/materialize
  const std::string& url() const { return url_; }

  // The last `lines` lines of the server's log.
  std::string log_tail(int lines) const;

  // True while the child has not exited.
  bool is_running();

  void stop();

 private:
  ServerProcess() = default;

  pid_t pid_ = -1;
  std::string directory_;
  std::string log_path_;
  std::string url_;
};

}  // namespace tandem::slt
