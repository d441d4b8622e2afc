#pragma once
// The server a test file runs against, and how it gets fresh state.
//
// A ServerTarget gives each file a clean environment (begin_file/end_file)
// and can wipe it mid-file for `reset-server`. Two kinds exist:
//   SpawnedServer  - starts tandemd per file (ServerProcess), restarts it
//                    on reset;
//   ExistingServer - uses a server at a URL; with fresh_db it creates a
//                    scratch database per file (and drops it after), and
//                    reset recreates it. Without fresh_db there is no way to
//                    reset, and reset() fails.
//
// Threading: owned and used by one thread.

#include <memory>
#include <string>
#include <vector>

#include "sqllogic/runner/pg_session.hpp"
#include "sqllogic/runner/server_process.hpp"

namespace tandem::slt {

class ServerTarget {
 public:
  virtual ~ServerTarget() = default;

  // Prepares a clean environment for one file. False (with *error) if the
  // file cannot run at all.
  virtual bool begin_file(std::string* error) = 0;
  virtual void end_file() = 0;

  // Wipes all state. Callers close their sessions first.
  virtual bool reset(std::string* error) = 0;

  // Where sessions connect; valid between begin_file and end_file.
  virtual ConnectTarget connect_target() const = 0;

  // Extra context for a connection failure (e.g. the server log's tail).
  virtual std::string diagnostics() { return {}; }
};

class SpawnedServer : public ServerTarget {
 public:
  explicit SpawnedServer(ServerProcess::Config config) : config_(std::move(config)) {}

  bool begin_file(std::string* error) override;
  void end_file() override;
  bool reset(std::string* error) override;
  ConnectTarget connect_target() const override;
  std::string diagnostics() override;

 private:
  ServerProcess::Config config_;
  std::unique_ptr<ServerProcess> server_;
};

class ExistingServer : public ServerTarget {
 public:
  ExistingServer(std::string url, bool fresh_db) : url_(std::move(url)), fresh_db_(fresh_db) {}

  bool begin_file(std::string* error) override;
  void end_file() override;
  bool reset(std::string* error) override;
  ConnectTarget connect_target() const override;

 private:
  // Runs one statement on a short-lived connection to the URL's database.
  bool run_admin(const std::string& sql, std::string* error);

  std::string url_;
  bool fresh_db_;
  int databases_created_ = 0;
  std::string scratch_db_;  // Empty when not using a scratch database.
};

}  // namespace tandem::slt
