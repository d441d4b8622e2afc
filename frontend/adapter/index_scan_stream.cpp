#include "frontend/adapter/index_scan_stream.hpp"

#include "common/sqlstate.hpp"
#include "frontend/adapter/await_callback.hpp"

namespace tandem::frontend {

IndexScanStream::IndexScanStream(std::unique_ptr<compute::IndexScan> scan, planner::Finishing finishing,
                                 std::shared_ptr<CancelToken> cancel, int64_t max_result_bytes,
                                 std::string limit_text, std::shared_ptr<compute::OffloadPool> pool)
    : scan_(std::move(scan)),
      finishing_(std::move(finishing)),
      cancel_(std::move(cancel)),
      max_result_bytes_(max_result_bytes),
      limit_text_(std::move(limit_text)),
      pool_(std::move(pool)),
      pages_(scan_ != nullptr && scan_->pages()) {}

bool IndexScanStream::streamable(const planner::Finishing& finishing) {
  return finishing.order_by.empty() && !finishing.limit && finishing.offset == 0;
}

void IndexScanStream::abandon(Status why) {
  std::lock_guard lock(walk_mu_);
  if (walking_) {
    // The walking thread owns the scan until its batch is done.
    if (!abandoned_) abandoned_ = std::move(why);
    return;
  }
  end_with(std::move(why));
}

void IndexScanStream::end_with(Status why) {
  if (!end_) end_ = std::move(why);
  scan_.reset();  // releases the snapshots (and the batches they pin) and the holds
  pending_.clear();
}

IndexScanStream::Batch IndexScanStream::produce(std::size_t max_rows) {
  {
    std::lock_guard lock(walk_mu_);
    walking_ = true;
  }
  Batch out = take(max_rows);
  std::lock_guard lock(walk_mu_);
  walking_ = false;
  if (abandoned_) end_with(*std::exchange(abandoned_, std::nullopt));
  return out;
}

IndexScanStream::Batch IndexScanStream::take(std::size_t max_rows) {
  while (pending_.empty() && !end_) {
    // Checked every kFuel positions: a filter that keeps nothing still stops.
    if (Status why = cancel_->check(); !why.is_ok()) {
      end_with(why);
      break;
    }
    if (scan_->done()) {
      end_with(Status::ok());
      break;
    }
    auto found = scan_->next(kFuel);
    if (!found.ok()) {
      end_with(found.status());
      break;
    }
    auto rows = finishing_.apply(*found);
    if (!rows.ok()) {
      end_with(rows.status());
      break;
    }
    for (const Row& r : *rows) bytes_ += static_cast<int64_t>(r.size());
    if (max_result_bytes_ > 0 && bytes_ > max_result_bytes_) {
      end_with(Status::error(sqlstate::kProgramLimitExceeded, "result exceeds max size of " + limit_text_));
      break;
    }
    pending_ = std::move(*rows);
  }
  if (!pending_.empty()) {
    if (max_rows == 0 || pending_.size() <= max_rows) {
      std::vector<Row> out;
      out.swap(pending_);
      return out;
    }
    std::vector<Row> out(std::make_move_iterator(pending_.begin()),
                         std::make_move_iterator(pending_.begin() + static_cast<std::ptrdiff_t>(max_rows)));
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(max_rows));
    return out;
  }
  if (ended_) return std::vector<Row>{};
  ended_ = true;
  if (!end_->is_ok()) return *end_;
  return std::vector<Row>{};
}

void IndexScanStream::walk_on_pool(std::size_t max_rows, std::function<void(Batch)> done) {
  compute::OffloadPool::Job job = [self = shared_from_this(), max_rows, done](bool shutting_down) {
    if (shutting_down) {
      self->abandon(Status::error(sqlstate::kAdminShutdown, "terminating connection due to administrator command"));
    }
    done(self->produce(max_rows));
  };
  std::shared_ptr<compute::OffloadPool> pool = pool_.lock();
  // The pool is full or gone: here, as with offload off.
  if (pool == nullptr || !pool->try_submit(job)) done(produce(max_rows));
}

boost::asio::awaitable<IndexScanStream::Batch> IndexScanStream::next(std::size_t max_rows,
                                                                   std::optional<Clock::time_point>) {
  bool offload = false;
  {
    std::lock_guard lock(walk_mu_);
    offload = !pool_.expired() && pages_ && scan_ != nullptr;
  }
  if (!offload) co_return produce(max_rows);
  // The start and its awaitable are named, not temporaries of the co_await
  // expression: g++ 12 destroys a temporary lambda's captures there twice
  // (the stream's reference count dropped once too often freed the scan
  // under the pool's walk).
  auto start = [self = shared_from_this(), max_rows](auto done) {
    self->walk_on_pool(max_rows, std::move(done));
  };
  auto batch = await_callback<Batch>(std::move(start));
  co_return co_await std::move(batch);
}

}  // namespace tandem::frontend
