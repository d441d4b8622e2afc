#pragma once
// Results that go through the peek stash (storage/peek_stash.hpp; DESIGN
// §6, issue 8 item 7).
//
// Which results: those whose rows only this statement holds and that are
// larger than compute_peek_response_stash_threshold_bytes, with no ORDER
// BY (an ordered result is collected and sorted in memory, bounded by
// max_result_size only):
//  * a peek dataflow's result, answered by compute with the sealed
//    snapshots of its one-shot arrangement: walked into the stash right
//    away, so its batches are released before the client reads a row,
//    instead of being pinned for as long as a slow client takes;
//  * a result collected in memory (compute's rows: LIMIT/OFFSET, literal
//    key lookups; constants; after finishing): moved to the stash and freed.
// A scan of a maintained index streams from the index itself
// (IndexScanStream): its batches are in memory for the index anyway.
//
// max_result_size bounds a stashed result as it bounds a streamed one: the
// walk stops past it, and the client gets the rows before the limit, then
// the error. A cancel or statement_timeout during the walk ends the
// statement with 57014. The stash is deleted whenever its stream is
// dropped: at the statement's end, on error, cancel or disconnect.
//
// Threading: the session's coroutine only.

#include <cstdint>
#include <memory>
#include <vector>

#include <boost/asio/awaitable.hpp>

#include "frontend/adapter/row_stream.hpp"
#include "frontend/server/cancel_registry.hpp"
#include "storage/peek_stash.hpp"

namespace tandem::frontend {

// Reads a sealed stash back to the client, one block at a time.
class StashStream final : public RowStream {
 public:
  // After the rows, the stream ends with `end` (OK, or the error that
  // stopped the walk into the stash).
  StashStream(std::unique_ptr<storage::StashedRows> rows, std::shared_ptr<CancelToken> cancel, Status end);
  ~StashStream() override;

  boost::asio::awaitable<Result<std::vector<Row>>> next(std::size_t max_rows = 0,
                                                       std::optional<Clock::time_point> deadline = {}) override;
  bool ended() const override { return ended_; }
  void abandon(Status why) override;

 private:
  // Deletes the stash (once) and logs it.
  void release();

  std::unique_ptr<storage::StashedRows> rows_;
  std::shared_ptr<CancelToken> cancel_;
  Status end_;
  bool ended_ = false;
};

// A result in memory, or in the stash (streamed).
struct StashedResult {
  std::vector<Row> rows;            // when small enough
  std::shared_ptr<RowStream> stream;  // a StashStream otherwise
};

// Keeps rows in memory up to `threshold_bytes` (0: no threshold), then
// moves them, and every row after, to a new stash.
class ResultStasher {
 public:
  ResultStasher(std::shared_ptr<storage::PeekStash> stash, int64_t threshold_bytes)
      : stash_(std::move(stash)), threshold_(threshold_bytes) {}
  Status add(std::vector<Row>&& rows);
  bool stashed() const { return rows_ != nullptr; }
  // The whole result: in memory, or a StashStream ending with `end`. A
  // result that ends with an error before reaching the stash is a stream
  // too: its rows, then the error.
  Result<StashedResult> finish(std::shared_ptr<CancelToken> cancel, Status end = Status::ok());

 private:
  std::shared_ptr<storage::PeekStash> stash_;
  const int64_t threshold_;
  int64_t bytes_ = 0;
  std::vector<Row> head_;
  std::unique_ptr<storage::StashedRows> rows_;
};

// Walks `source` (a peek dataflow's snapshots) to its end, through a
// ResultStasher; yields to the session's executor between batches.
boost::asio::awaitable<Result<StashedResult>> stash_stream(std::shared_ptr<RowStream> source,
                                                           ResultStasher stasher,
                                                           std::shared_ptr<CancelToken> cancel);

}  // namespace tandem::frontend
