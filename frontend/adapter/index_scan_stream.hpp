#pragma once
// IndexScanStream: a pull RowStream (row_stream.hpp) over a fast-path full
// scan of a sealed index (compute::IndexScan), for SELECTs and COPY TO whose
// finishing needs no other row (no ORDER BY, LIMIT or OFFSET): each next()
// walks a bounded number of index positions on the caller's thread, so the
// scan runs only as fast as the client reads, and the server holds one
// batch of the result rather than all of it.
//
// A scan whose walk reads spilled blocks back (IndexScan::pages) walks each
// batch on the offload pool instead (issue 9 item 5), so the I/O thread
// serves its other connections while RocksDB is read; a full pool walks it
// inline. The pool job owns a reference to the stream, and the stream owns
// the scan (its snapshots pin the batches, its holds the read's time), so
// nothing the walk reads can go while it runs. The consumer's coroutine is
// suspended meanwhile and resumes on its own executor with the batch.
// abandon() from another context while a batch is walked on the pool only
// records why: the walk ends the stream once its batch is done.
//
// max_result_size still bounds the result: once the rows produced exceed it
// the stream ends with the same error as a collected result, midway. A
// cancel request or statement_timeout ends it with 57014 at the next batch
// of kFuel positions.
// Threading: next() from the consumer's coroutine; abandon() any thread.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "compute/runtime/index_scan.hpp"
#include "compute/runtime/offload_pool.hpp"
#include "frontend/adapter/row_stream.hpp"
#include "frontend/server/cancel_registry.hpp"
#include "planner/read_plan.hpp"

namespace tandem::frontend {

class IndexScanStream final : public RowStream, public std::enable_shared_from_this<IndexScanStream> {
 public:
  // Index positions walked per batch: bounded work between two chances for
  // the I/O thread to serve other connections (like the inline peek budget).
  static constexpr std::size_t kFuel = 4096;

  // `max_result_bytes` <= 0: no bound; `limit_text` names it in the error.
  // `pool` (may be null): where the batches of a scan that pages are
  // walked. Make it with std::make_shared (the pool job holds the stream).
  IndexScanStream(std::unique_ptr<compute::IndexScan> scan, planner::Finishing finishing,
                  std::shared_ptr<CancelToken> cancel, int64_t max_result_bytes, std::string limit_text,
                  std::shared_ptr<compute::OffloadPool> pool = nullptr);

  // True when `finishing` can be applied batch by batch.
  static bool streamable(const planner::Finishing& finishing);

  boost::asio::awaitable<Result<std::vector<Row>>> next(std::size_t max_rows = 0,
                                                       std::optional<Clock::time_point> deadline = {}) override;
  bool ended() const override { return ended_; }
  void abandon(Status why) override;

 private:
  using Batch = Result<std::vector<Row>>;
  // One batch, synchronously, on the calling thread: marks the walk for
  // abandon() around take().
  Batch produce(std::size_t max_rows);
  Batch take(std::size_t max_rows);
  // One batch on the pool (or here when the pool refuses it); `done` gets it
  // on the walking thread.
  void walk_on_pool(std::size_t max_rows, std::function<void(Batch)> done);
  // Ends the stream with `why` and releases the scan. Not during a walk.
  void end_with(Status why);

  std::unique_ptr<compute::IndexScan> scan_;
  planner::Finishing finishing_;
  std::shared_ptr<CancelToken> cancel_;
  const int64_t max_result_bytes_;
  const std::string limit_text_;
  // Not owned: a pool job holds the stream, so a stream owning the pool
  // could drop the pool's last reference on one of its own threads (whose
  // destructor would then join itself).
  const std::weak_ptr<compute::OffloadPool> pool_;
  const bool pages_;
  std::mutex walk_mu_;                 // guards walking_ and abandoned_
  bool walking_ = false;               // a batch is being walked (any thread)
  std::optional<Status> abandoned_;    // abandon() during that walk
  int64_t bytes_ = 0;
  std::vector<Row> pending_;  // produced, beyond the caller's max_rows
  std::optional<Status> end_;
  bool ended_ = false;
};

}  // namespace tandem::frontend
