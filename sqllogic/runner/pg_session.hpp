#pragma once
// A libpq connection that runs SQL over the simple query protocol with a
// per-statement timeout.
//
// Threading: a PgSession is used by one thread at a time.
// Timeout contract: when a statement runs longer than the timeout, the
// session sends a cancel request and then waits (bounded) for the server to
// finish the statement; the outcome is marked timed_out whatever the server
// answered. If the server does not answer the cancel in time the connection
// is closed, and is_broken() reports it so the caller can reconnect.

#include <libpq-fe.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tandem::slt {

struct PgResultDeleter {
  void operator()(PGresult* result) const { PQclear(result); }
};
using PgResult = std::unique_ptr<PGresult, PgResultDeleter>;

// Where to connect: a libpq connection string or URL, plus overrides.
struct ConnectTarget {
  std::string conninfo;
  std::string user;    // Empty: as in conninfo.
  std::string dbname;  // Empty: as in conninfo.
};

// The fields of a PostgreSQL ErrorResponse a test can check.
struct PgError {
  std::string sqlstate;
  std::string message;  // Primary message.
  std::string detail;
  std::string hint;
  std::string full;  // libpq's complete error text ("ERROR:  msg\nDETAIL: ...").
};

struct ExecOutcome {
  // One result per statement of the SQL text, in order; execution stops
  // at the first error, whose result is the last one.
  std::vector<PgResult> results;
  bool timed_out = false;
  std::optional<PgError> error;  // The first error, connection errors included.
};

class PgSession {
 public:
  // Returns nullptr and sets *error if the connection cannot be made.
  static std::unique_ptr<PgSession> connect(const ConnectTarget& target, std::string* error);

  ~PgSession();
  PgSession(const PgSession&) = delete;
  PgSession& operator=(const PgSession&) = delete;

  // Runs `sql` (possibly several statements). A zero timeout means none.
  ExecOutcome execute(const std::string& sql, std::chrono::milliseconds timeout);

  bool is_broken() const;

 private:
  explicit PgSession(PGconn* connection) : connection_(connection) {}

  // Waits until a result can be read without blocking or `deadline` passes.
  // Returns false on timeout or connection failure (see connection_failed_).
  bool wait_readable(std::chrono::steady_clock::time_point deadline);
  void drain(ExecOutcome& outcome, std::chrono::steady_clock::time_point deadline);

  PGconn* connection_;
  bool connection_failed_ = false;
};

// Error fields of a failed result.
PgError error_of(const PGresult* result);

}  // namespace tandem::slt
