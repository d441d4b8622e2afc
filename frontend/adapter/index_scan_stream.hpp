#pragma once
// IndexScanStream: a pull RowStream (row_stream.hpp) over a fast-path full
// scan of a sealed index (compute::IndexScan), for SELECTs and COPY TO whose
// finishing needs no other row (no ORDER BY, LIMIT or OFFSET): each next()
// walks a bounded number of index positions on the caller's thread, so the
// scan runs only as fast as the client reads, and the server holds one
// batch of the result rather than all of it.
//
// max_result_size still bounds the result: once the rows produced exceed it
// the stream ends with the same error as a collected result, midway. A
// cancel request or statement_timeout ends it with 57014 at the next batch.
// Threading: the consumer's coroutine only.

#include <cstdint>
#include <memory>
#include <string>

#include "compute/runtime/index_scan.hpp"
#include "frontend/adapter/row_stream.hpp"
#include "frontend/server/cancel_registry.hpp"
#include "planner/read_plan.hpp"

namespace tandem::frontend {

class IndexScanStream final : public RowStream {
 public:
  // Index positions walked per batch: bounded work between two chances for
  // the I/O thread to serve other connections (like the inline peek budget).
  static constexpr std::size_t kFuel = 4096;

  // `max_result_bytes` <= 0: no bound; `limit_text` names it in the error.
  IndexScanStream(std::unique_ptr<compute::IndexScan> scan, planner::Finishing finishing,
                  std::shared_ptr<CancelToken> cancel, int64_t max_result_bytes, std::string limit_text);

  // True when `finishing` can be applied batch by batch.
  static bool streamable(const planner::Finishing& finishing);

  boost::asio::awaitable<Result<std::vector<Row>>> next(std::size_t max_rows = 0,
                                                       std::optional<Clock::time_point> deadline = {}) override;
  bool ended() const override { return ended_; }
  void abandon(Status why) override;

 private:
  // One batch, synchronously.
  Result<std::vector<Row>> produce(std::size_t max_rows);

  std::unique_ptr<compute::IndexScan> scan_;
  planner::Finishing finishing_;
  std::shared_ptr<CancelToken> cancel_;
  const int64_t max_result_bytes_;
  const std::string limit_text_;
  int64_t bytes_ = 0;
  std::vector<Row> pending_;  // produced, beyond the caller's max_rows
  std::optional<Status> end_;
  bool ended_ = false;
};

}  // namespace tandem::frontend
