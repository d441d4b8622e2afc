#pragma once
// Session: the state of one client connection that outlives a statement:
// configuration variables, the transaction block status, prepared statements
// and portals of the extended protocol, and the cancellation token.
//
// Threading: owned by its connection; used by one thread at a time (the
// connection's I/O thread, or the blocking pool while a statement that may
// wait runs there, never both).

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/timestamp.hpp"

#include "frontend/adapter/cursor.hpp"
#include "frontend/adapter/prepared_statement.hpp"
#include "frontend/server/cancel_registry.hpp"
#include "frontend/session/pending_writes.hpp"
#include "frontend/session/session_vars.hpp"

namespace tandem::frontend {

enum class TransactionState : uint8_t {
  kIdle,     // no transaction block
  kInBlock,  // inside BEGIN ... COMMIT
  kFailed,   // inside a block after an error: only ROLLBACK/COMMIT accepted
};

class Session {
 public:
  Session(std::string user, std::string database);

  const std::string& user() const { return user_; }
  const std::string& database() const { return database_; }
  // Whether the session's role was looked up, and created if missing
  // (Adapter::check_session_privileges).
  bool role_ensured() const { return role_ensured_; }
  void set_role_ensured() { role_ensured_ = true; }

  SessionVars& vars() { return vars_; }
  const SessionVars& vars() const { return vars_; }

  TransactionState transaction() const { return transaction_; }
  // Leaving a transaction block forgets its timestamp and isolation level
  // and closes its cursors; leaving it or failing drops its pending writes.
  void set_transaction(TransactionState t) {
    transaction_ = t;
    if (t != TransactionState::kInBlock) pending_.reset();
    if (t == TransactionState::kIdle) {
      transaction_ts_.reset();
      transaction_hold_.reset();
      transaction_isolation_.reset();
      transaction_read_only_ = false;
      cursors_.clear();
      savepoints_.clear();
    }
  }

  // Savepoints of the block, oldest first: each keeps a copy of the pending
  // writes as they were when it was defined (null: none).
  struct Savepoint {
    std::string name;
    std::unique_ptr<PendingWrites> pending;
  };
  std::vector<Savepoint>& savepoints() { return savepoints_; }
  // ROLLBACK TO: the block's pending writes become `pending`'s copy, and a
  // failed block is in progress again.
  void restore_pending_writes(const PendingWrites* pending) {
    transaction_ = TransactionState::kInBlock;
    pending_ = pending ? std::make_unique<PendingWrites>(*pending) : nullptr;
  }

  // The implicit transaction of a multi-statement Query message (PostgreSQL's
  // rule): between begin_implicit() and end_implicit(), statements outside a
  // block share one timestamp and buffer their writes as a block does; the
  // connection commits them when the message's statements all succeed.
  // end_implicit() forgets what is left (the writes, the timestamp) unless a
  // BEGIN turned it into a block.
  void begin_implicit() { implicit_ = true; }
  void end_implicit() {
    implicit_ = false;
    if (transaction_ == TransactionState::kIdle) set_transaction(TransactionState::kIdle);
  }
  bool implicit() const { return implicit_; }
  // In a transaction whose reads share a timestamp and whose writes wait for
  // its end: a block, or an implicit transaction outside one.
  bool in_transaction() const {
    return transaction_ == TransactionState::kInBlock || (implicit_ && transaction_ == TransactionState::kIdle);
  }
  // The transaction's uncommitted writes: null when it has none.
  PendingWrites* pending_writes() { return pending_.get(); }
  PendingWrites& pending_writes_for_update() {
    if (!pending_) pending_ = std::make_unique<PendingWrites>();
    return *pending_;
  }
  // Hands the writes over (to COMMIT), leaving none.
  std::unique_ptr<PendingWrites> take_pending_writes() { return std::move(pending_); }

  // The timestamp all reads of the current explicit transaction share (the
  // first read's), and the isolation level BEGIN / SET TRANSACTION chose.
  const std::optional<Timestamp>& transaction_ts() const { return transaction_ts_; }
  // `hold` (a coordinator read hold, opaque here) keeps the tables readable
  // at `ts` until the transaction ends.
  void set_transaction_ts(Timestamp ts, std::shared_ptr<const void> hold = nullptr) {
    transaction_ts_ = ts;
    transaction_hold_ = std::move(hold);
  }
  void set_transaction_isolation(std::string level) { transaction_isolation_ = std::move(level); }
  // BEGIN READ ONLY / SET TRANSACTION READ ONLY: the block may not write.
  void set_transaction_read_only(bool read_only) { transaction_read_only_ = read_only; }
  bool transaction_read_only() const { return transaction_read_only_; }
  // The level the current statement runs at: the transaction's, else the
  // transaction_isolation variable's.
  const std::string& isolation() const {
    return transaction_isolation_ ? *transaction_isolation_ : vars_.transaction_isolation();
  }

  // Extended protocol objects. The unnamed ("") statement and portal are
  // replaced freely; named ones must be closed first.
  std::map<std::string, std::shared_ptr<const PreparedStatement>, std::less<>>& statements() {
    return statements_;
  }
  std::map<std::string, Portal, std::less<>>& portals() { return portals_; }
  // DECLAREd cursors: closed (their subscribes ended) when the transaction
  // block ends.
  std::map<std::string, Cursor, std::less<>>& cursors() { return cursors_; }

  const std::shared_ptr<CancelToken>& cancel_token() const { return cancel_token_; }

  // Work for after the reply, for a session whose owner runs it (the
  // connection: once the reply to what it has received is sent, or before
  // its next statement runs, whichever comes first, since a later
  // statement in the same pipeline may wait for it). A commit made on the
  // session's thread feeds compute this way (Coordinator::try_write_inline):
  // after the client has its answer, with no further trip through the
  // event loop. Other owners leave it off, and such work is posted to the
  // executor instead.
  void set_runs_after_reply(bool runs) { runs_after_reply_ = runs; }
  bool runs_after_reply() const { return runs_after_reply_; }
  void after_reply(std::function<void()> work) { after_reply_.push_back(std::move(work)); }
  void run_after_reply() {
    for (size_t i = 0; i < after_reply_.size(); ++i) {
      auto work = std::move(after_reply_[i]);
      work();
    }
    after_reply_.clear();
  }

 private:
  bool role_ensured_ = false;
  std::string user_;
  std::string database_;
  SessionVars vars_;
  TransactionState transaction_ = TransactionState::kIdle;
  std::optional<Timestamp> transaction_ts_;
  std::shared_ptr<const void> transaction_hold_;
  std::optional<std::string> transaction_isolation_;
  bool implicit_ = false;
  bool transaction_read_only_ = false;
  std::unique_ptr<PendingWrites> pending_;
  std::vector<Savepoint> savepoints_;
  std::map<std::string, std::shared_ptr<const PreparedStatement>, std::less<>> statements_;
  std::map<std::string, Portal, std::less<>> portals_;
  std::map<std::string, Cursor, std::less<>> cursors_;
  std::shared_ptr<CancelToken> cancel_token_ = std::make_shared<CancelToken>();
  bool runs_after_reply_ = false;
  std::vector<std::function<void()>> after_reply_;
};

}  // namespace tandem::frontend
