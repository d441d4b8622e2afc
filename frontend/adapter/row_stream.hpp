#pragma once
// RowStream: the rows of a result produced while the client reads them
// (issue 5 item 5), instead of all collected before the first is sent.
// An ExecResult that carries one has its rows sent by the connection batch
// by batch: DataRow (or CopyData) messages written and flushed as batches
// arrive, the socket's writes pacing the producer.
//
// Two kinds:
//  * pull streams (a fast-path scan of an index, adapter/index_scan_stream):
//    next() does a bounded piece of work on the caller's thread, so the
//    producer runs only as fast as the client reads;
//  * RowChannel (below): rows pushed from another thread (a subscribe's
//    updates from the coordinator) into a bounded buffer; next() suspends
//    the consumer's coroutine until a push or the end wakes it (no polling).
//
// Contract of next(): the rows in production order; an empty vector means
// the stream ended; an error ends it (after the rows already returned,
// e.g. max_result_size exceeded midway). Called by one coroutine at a time;
// resumes on the caller's executor.
// Threading: a stream belongs to its consumer's coroutine; RowChannel's
// producer side is thread-safe.

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <boost/asio/awaitable.hpp>

#include "common/row.hpp"
#include "common/status.hpp"

namespace tandem::frontend {

class RowStream {
 public:
  using Clock = std::chrono::steady_clock;
  virtual ~RowStream() = default;
  // At most `max_rows` rows (0: no bound). With a `deadline`, a stream with
  // nothing ready returns an empty, non-final batch once it passes (check
  // ended()); without one it waits for rows or the end.
  virtual boost::asio::awaitable<Result<std::vector<Row>>> next(std::size_t max_rows = 0,
                                                               std::optional<Clock::time_point> deadline = {}) = 0;
  // True once next() has returned the end (or an error).
  virtual bool ended() const = 0;
  // Rows arrive over time (a subscribe): flush every batch to the client.
  virtual bool live() const { return false; }
  // The client went away or the statement was canceled: stop producing.
  // `why` ends the stream (next() returns it once buffered rows are gone).
  virtual void abandon(Status why) = 0;
};

// A bounded buffer of rows between a producer thread and the consumer's
// coroutine.
class RowChannel final : public RowStream, public std::enable_shared_from_this<RowChannel> {
 public:
  // At most `capacity` rows buffered; a push past it is refused (kFull).
  static std::shared_ptr<RowChannel> make(std::size_t capacity, bool live = true);

  // ---- producer side, any thread
  enum class Push : uint8_t { kAccepted, kFull, kClosed };
  // Appends `rows` in order, all or nothing: kFull when they would exceed
  // the capacity (nothing taken; the producer decides: wait, or end the
  // stream with an error), kClosed once the stream ended or was abandoned.
  Push push(std::vector<Row>& rows);
  // Ends the stream after the buffered rows: OK is a normal end.
  void finish(Status status = Status::ok());
  // Runs once when the consumer abandons the stream (not after finish()).
  // Runs on the abandoning thread; it must only hand off.
  void set_on_abandon(std::function<void()> fn);
  std::size_t buffered() const;

  // ---- consumer side
  boost::asio::awaitable<Result<std::vector<Row>>> next(std::size_t max_rows = 0,
                                                       std::optional<Clock::time_point> deadline = {}) override;
  bool ended() const override;
  bool live() const override { return live_; }
  void abandon(Status why) override;

 private:
  RowChannel(std::size_t capacity, bool live) : capacity_(capacity), live_(live) {}
  // Takes up to max_rows buffered rows, or the end; nullopt when the
  // consumer must wait. REQUIRES mu_.
  std::optional<Result<std::vector<Row>>> take_locked(std::size_t max_rows);
  // Wakes the waiting consumer, if any. REQUIRES mu_ not held.
  void wake(std::function<void()> waiter);

  const std::size_t capacity_;
  const bool live_;
  mutable std::mutex mu_;
  std::deque<Row> rows_;
  std::optional<Status> end_;         // set by finish() or abandon()
  bool end_returned_ = false;          // next() reported the end
  std::function<void()> waiter_;       // the suspended consumer's resumption
  std::function<void()> on_abandon_;
};

}  // namespace tandem::frontend
