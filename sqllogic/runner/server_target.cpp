#include "sqllogic/runner/server_target.hpp"

#include <unistd.h>

namespace tandem::slt {

bool SpawnedServer::begin_file(std::string* error) {
  server_ = ServerProcess::start(config_, error);
  return server_ != nullptr;
}

void SpawnedServer::end_file() { server_.reset(); }

bool SpawnedServer::reset(std::string* error) {
  server_.reset();
  return begin_file(error);
}

ConnectTarget SpawnedServer::connect_target() const {
  return ConnectTarget{server_ ? server_->url() : std::string(), "", ""};
}

std::string SpawnedServer::diagnostics() {
  if (!server_) return "tandemd is not running\n";
  std::string state = server_->is_running() ? "tandemd is running" : "tandemd has exited";
  return state + "; log tail:\n" + server_->log_tail(20);
}

bool ExistingServer::run_admin(const std::string& sql, std::string* error) {
  std::unique_ptr<PgSession> session = PgSession::connect(ConnectTarget{url_, "", ""}, error);
  if (!session) return false;
  ExecOutcome outcome = session->execute(sql, std::chrono::seconds(60));
  if (outcome.error) {
    *error = outcome.error->full;
    return false;
  }
  if (outcome.timed_out) {
    *error = "timed out: " + sql;
    return false;
  }
  return true;
}

bool ExistingServer::begin_file(std::string* error) {
  if (!fresh_db_) return true;
  scratch_db_ = "slt_" + std::to_string(getpid()) + "_" + std::to_string(++databases_created_);
  if (!run_admin("CREATE DATABASE " + scratch_db_, error)) {
    scratch_db_.clear();
    return false;
  }
  return true;
}

void ExistingServer::end_file() {
  if (scratch_db_.empty()) return;
  std::string ignored;
  run_admin("DROP DATABASE IF EXISTS " + scratch_db_, &ignored);
  scratch_db_.clear();
}

bool ExistingServer::reset(std::string* error) {
  if (!fresh_db_) {
    *error = "reset-server needs a self-started server or --fresh-db";
    return false;
  }
  end_file();
  return begin_file(error);
}

ConnectTarget ExistingServer::connect_target() const { return ConnectTarget{url_, "", scratch_db_}; }

}  // namespace tandem::slt
