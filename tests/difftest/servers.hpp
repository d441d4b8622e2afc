#pragma once
// The two servers a difftest run compares: a throwaway PostgreSQL 15
// cluster (initdb + pg_ctl, run as the postgres user when we are root) and
// a tandemd, each on a free loopback port under one temporary directory.
// Both are stopped and the directory removed on destruction; on SIGINT or
// SIGTERM, kill_servers_from_signal() stops them at once so that a blocked
// client call returns and the destructors can run.

#include <string>

#include <sys/types.h>

namespace tandem::difftest {

class Servers {
 public:
  // Throws std::runtime_error when a server does not come up.
  Servers(std::string tandemd_path, std::string pg_bindir);
  ~Servers();
  Servers(const Servers&) = delete;
  Servers& operator=(const Servers&) = delete;

  std::string pg_conninfo() const;
  std::string tandem_conninfo() const;
  int pg_port() const { return pg_port_; }
  int tandem_port() const { return td_port_; }

  // True while tandemd runs; false (and its exit status in *how) once it
  // exited or died.
  bool tandem_alive(std::string* how = nullptr);
  // Stops tandemd and starts a fresh one (empty data directory).
  void restart_tandem();
  // The last lines of tandemd's log.
  std::string tandem_log_tail(int lines = 30) const;

 private:
  void start_postgres();
  void stop_postgres();
  void start_tandem();
  void stop_tandem();

  std::string tandemd_path_;
  std::string pg_bindir_;
  std::string dir_;
  int pg_port_ = 0;
  int td_port_ = 0;
  pid_t td_pid_ = -1;
  bool pg_started_ = false;
  int td_generation_ = 0;
};

// Async-signal-safe: SIGKILLs the running tandemd and asks the postmaster
// for an immediate shutdown.
void kill_servers_from_signal();

}  // namespace tandem::difftest
