#pragma once
// Connection: one libpq connection to PostgreSQL or tandemd that runs one
// statement at a time over the simple query protocol, with a client-side
// deadline (a statement past it is cancelled; a server that does not answer
// the cancel either counts as lost).
//
// Threading: one thread per Connection.

#include <libpq-fe.h>

#include <optional>
#include <string>
#include <vector>

namespace tandem::difftest {

struct Result {
  enum class Status { kOk, kError, kLost };
  Status status = Status::kLost;
  std::string sqlstate;  // kError: the server's SQLSTATE (57014 on our timeout)
  std::string message;
  std::vector<unsigned> types;  // result column type OIDs
  std::vector<std::vector<std::optional<std::string>>> rows;
  std::string tag;  // the command tag (INSERT 0 2, ...)

  bool ok() const { return status == Status::kOk; }
};

class Connection {
 public:
  Connection() = default;
  explicit Connection(std::string conninfo, int timeout_seconds = 30);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // (Re)connects; false when the server does not accept the connection.
  bool connect();
  bool connected() const;
  Result exec(const std::string& sql);

 private:
  std::string conninfo_;
  int timeout_seconds_ = 30;
  PGconn* conn_ = nullptr;
};

}  // namespace tandem::difftest
