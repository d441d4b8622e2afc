#include "frontend/adapter/index_scan_stream.hpp"

namespace tandem::frontend {

IndexScanStream::IndexScanStream(std::unique_ptr<compute::IndexScan> scan, planner::Finishing finishing,
                                 std::shared_ptr<CancelToken> cancel, int64_t max_result_bytes,
                                 std::string limit_text)
    : scan_(std::move(scan)),
      finishing_(std::move(finishing)),
      cancel_(std::move(cancel)),
      max_result_bytes_(max_result_bytes),
      limit_text_(std::move(limit_text)) {}

bool IndexScanStream::streamable(const planner::Finishing& finishing) {
  return finishing.order_by.empty() && !finishing.limit && finishing.offset == 0;
}

void IndexScanStream::abandon(Status why) {
  if (!end_) end_ = std::move(why);
  scan_.reset();  // releases the snapshots (and the batches they hold)
  pending_.clear();
}

Result<std::vector<Row>> IndexScanStream::produce(std::size_t max_rows) {
  if (!end_) {
    if (Status why = cancel_->check(); !why.is_ok()) abandon(why);
  }
  while (pending_.empty() && !end_) {
    if (scan_->done()) {
      end_ = Status::ok();
      scan_.reset();
      break;
    }
    auto found = scan_->next(kFuel);
    if (!found.ok()) {
      abandon(found.status());
      break;
    }
    auto rows = finishing_.apply(*found);
    if (!rows.ok()) {
      abandon(rows.status());
      break;
    }
    for (const Row& r : *rows) bytes_ += static_cast<int64_t>(r.size());
    if (max_result_bytes_ > 0 && bytes_ > max_result_bytes_) {
      abandon(Status::error(sqlstate::kProgramLimitExceeded, "result exceeds max size of " + limit_text_));
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

boost::asio::awaitable<Result<std::vector<Row>>> IndexScanStream::next(std::size_t max_rows,
                                                                      std::optional<Clock::time_point>) {
  co_return produce(max_rows);
}

}  // namespace tandem::frontend
