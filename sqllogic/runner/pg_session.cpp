#include "sqllogic/runner/pg_session.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>

namespace tandem::slt {
namespace {

using Clock = std::chrono::steady_clock;

// How long a cancelled statement may take to wind down.
constexpr std::chrono::seconds kCancelGrace{10};

std::string field(const PGresult* result, int code) {
  const char* value = PQresultErrorField(result, code);
  return value ? value : "";
}

std::string trim_trailing_newlines(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

PgError connection_error(PGconn* connection) {
  PgError error;
  error.message = trim_trailing_newlines(PQerrorMessage(connection));
  if (error.message.empty()) error.message = "connection lost";
  error.full = error.message;
  return error;
}

}  // namespace

PgError error_of(const PGresult* result) {
  PgError error;
  error.sqlstate = field(result, PG_DIAG_SQLSTATE);
  error.message = field(result, PG_DIAG_MESSAGE_PRIMARY);
  error.detail = field(result, PG_DIAG_MESSAGE_DETAIL);
  error.hint = field(result, PG_DIAG_MESSAGE_HINT);
  error.full = trim_trailing_newlines(PQresultErrorMessage(result));
  if (error.message.empty()) error.message = error.full;
  return error;
}

std::unique_ptr<PgSession> PgSession::connect(const ConnectTarget& target, std::string* error) {
  // The first "dbname" is expanded as a connection string; later keywords
  // override what it sets.
  std::vector<const char*> keywords{"dbname"};
  std::vector<const char*> values{target.conninfo.c_str()};
  if (!target.user.empty()) {
    keywords.push_back("user");
    values.push_back(target.user.c_str());
  }
  if (!target.dbname.empty()) {
    keywords.push_back("dbname");
    values.push_back(target.dbname.c_str());
  }
  keywords.push_back(nullptr);
  values.push_back(nullptr);
  PGconn* connection = PQconnectdbParams(keywords.data(), values.data(), /*expand_dbname=*/1);
  if (connection == nullptr) {
    *error = "out of memory";
    return nullptr;
  }
  if (PQstatus(connection) != CONNECTION_OK) {
    *error = trim_trailing_newlines(PQerrorMessage(connection));
    PQfinish(connection);
    return nullptr;
  }
  // Notices (e.g. "table does not exist, skipping") are not test output.
  PQsetNoticeProcessor(connection, [](void*, const char*) {}, nullptr);
  return std::unique_ptr<PgSession>(new PgSession(connection));
}

PgSession::~PgSession() { PQfinish(connection_); }

bool PgSession::is_broken() const {
  return connection_failed_ || PQstatus(connection_) != CONNECTION_OK;
}

bool PgSession::wait_readable(Clock::time_point deadline) {
  while (PQisBusy(connection_)) {
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (remaining.count() <= 0) return false;
    pollfd descriptor{PQsocket(connection_), POLLIN, 0};
    const int ready = poll(&descriptor, 1, static_cast<int>(std::min<long long>(remaining.count(), 1000)));
    if (ready < 0 && errno != EINTR) {
      connection_failed_ = true;
      return false;
    }
    if (ready > 0 && PQconsumeInput(connection_) == 0) {
      connection_failed_ = true;
      return false;
    }
  }
  return true;
}

void PgSession::drain(ExecOutcome& outcome, Clock::time_point deadline) {
  while (true) {
    if (!wait_readable(deadline)) {
      if (connection_failed_) {
        if (!outcome.error) outcome.error = connection_error(connection_);
        return;
      }
      if (outcome.timed_out) {
        // The server ignored the cancel; give the connection up.
        connection_failed_ = true;
        return;
      }
      outcome.timed_out = true;
      if (PGcancel* cancel = PQgetCancel(connection_)) {
        char buffer[256];
        PQcancel(cancel, buffer, sizeof buffer);
        PQfreeCancel(cancel);
      }
      deadline = Clock::now() + kCancelGrace;
      continue;
    }
    PgResult result(PQgetResult(connection_));
    if (!result) return;
    switch (PQresultStatus(result.get())) {
      case PGRES_COPY_IN:
        PQputCopyEnd(connection_, "COPY FROM STDIN is not supported by tandem-slt");
        break;
      case PGRES_COPY_OUT: {
        char* buffer = nullptr;
        while (PQgetCopyData(connection_, &buffer, /*async=*/0) > 0) PQfreemem(buffer);
        break;
      }
      case PGRES_BAD_RESPONSE:
      case PGRES_NONFATAL_ERROR:
      case PGRES_FATAL_ERROR:
        if (!outcome.error) outcome.error = error_of(result.get());
        break;
      default:
        break;
    }
    outcome.results.push_back(std::move(result));
  }
}

ExecOutcome PgSession::execute(const std::string& sql, std::chrono::milliseconds timeout) {
  ExecOutcome outcome;
  if (PQsendQuery(connection_, sql.c_str()) == 0) {
    connection_failed_ = true;
    outcome.error = connection_error(connection_);
    return outcome;
  }
  // A zero timeout means "no timeout"; a year is as good as forever here.
  const auto limit = timeout.count() > 0 ? std::chrono::milliseconds(timeout)
                                         : std::chrono::milliseconds(std::chrono::hours(24 * 365));
  drain(outcome, Clock::now() + limit);
  if (PQstatus(connection_) != CONNECTION_OK && !outcome.error) {
    outcome.error = connection_error(connection_);
  }
  return outcome;
}

}  // namespace tandem::slt
