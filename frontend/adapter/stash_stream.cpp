#include "frontend/adapter/stash_stream.hpp"

#include <malloc.h>

#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <spdlog/spdlog.h>

namespace tandem::frontend {
namespace asio = boost::asio;

StashStream::StashStream(std::unique_ptr<storage::StashedRows> rows, std::shared_ptr<CancelToken> cancel, Status end)
    : rows_(std::move(rows)), cancel_(std::move(cancel)), end_(std::move(end)) {}

StashStream::~StashStream() { release(); }

void StashStream::release() {
  if (!rows_) return;
  const uint64_t id = rows_->id();
  const uint64_t rows = rows_->rows();
  const int64_t bytes = rows_->bytes();
  std::shared_ptr<storage::PeekStash> stash = rows_->stash();
  rows_.reset();
  spdlog::info("peek stash {} deleted ({} rows, {} bytes); live peek stashes: {}", id, rows, bytes,
               stash->stats().live);
}

void StashStream::abandon(Status why) {
  if (end_.is_ok()) end_ = std::move(why);
  release();
}

boost::asio::awaitable<Result<std::vector<Row>>> StashStream::next(std::size_t max_rows,
                                                                  std::optional<Clock::time_point>) {
  if (ended_) co_return std::vector<Row>{};
  if (rows_) {
    if (Status why = cancel_->check(); !why.is_ok()) {
      abandon(why);
    } else {
      auto got = rows_->read(max_rows);
      if (!got.ok()) {
        abandon(got.status());
      } else if (!got->empty()) {
        co_return std::move(*got);
      } else {
        release();  // every row was read: the stash goes now, not at the statement's end
      }
    }
  }
  ended_ = true;
  if (!end_.is_ok()) co_return end_;
  co_return std::vector<Row>{};
}

Status ResultStasher::add(std::vector<Row>&& rows) {
  if (!rows_) {
    for (Row& r : rows) {
      bytes_ += static_cast<int64_t>(r.size());
      head_.push_back(std::move(r));
    }
    rows.clear();
    if (threshold_ <= 0 || bytes_ <= threshold_) return Status::ok();
    // Past the threshold: everything so far moves to a new stash.
    rows_ = stash_->begin();
    for (const Row& r : head_) TANDEM_RETURN_IF_ERROR(rows_->append(r));
    std::vector<Row>().swap(head_);
    return Status::ok();
  }
  for (const Row& r : rows) TANDEM_RETURN_IF_ERROR(rows_->append(r));
  rows.clear();
  return Status::ok();
}

Result<StashedResult> ResultStasher::finish(std::shared_ptr<CancelToken> cancel, Status end) {
  StashedResult out;
  if (!rows_ && !end.is_ok()) {
    // The rows before the error still go first, as from a stash.
    auto channel = RowChannel::make(head_.size(), /*live=*/false);
    (void)channel->push(head_);
    channel->finish(std::move(end));
    out.stream = std::move(channel);
    return out;
  }
  if (!rows_) {
    out.rows = std::move(head_);
    return out;
  }
  TANDEM_RETURN_IF_ERROR(rows_->seal());
  out.stream = std::make_shared<StashStream>(std::move(rows_), std::move(cancel), std::move(end));
  return out;
}

asio::awaitable<Result<StashedResult>> stash_stream(std::shared_ptr<RowStream> source, ResultStasher stasher,
                                                    std::shared_ptr<CancelToken> cancel) {
  auto executor = co_await asio::this_coro::executor;
  Status end = Status::ok();
  for (;;) {
    auto batch = co_await source->next(0);
    if (!batch.ok()) {
      end = batch.status();
      break;
    }
    if (batch->empty()) {
      if (source->ended()) break;
      continue;
    }
    Status added = stasher.add(std::move(*batch));
    if (!added.is_ok()) co_return added;
    // Other connections of this thread get their turn between batches.
    co_await asio::post(executor, asio::use_awaitable);
  }
  // The snapshots' batches are released before the client reads a row;
  // malloc keeps freed pages mapped, so they go back to the OS explicitly
  // (a stashed result is at least the threshold's size, worth the trim).
  source.reset();
  if (stasher.stashed()) malloc_trim(0);
  // Past max_result_size the rows before the limit are still sent, then the
  // error, as from a streamed scan; any other error ends the statement now.
  if (!end.is_ok() && end.sqlstate() != sqlstate::kProgramLimitExceeded) co_return end;
  co_return stasher.finish(std::move(cancel), std::move(end));
}

}  // namespace tandem::frontend
