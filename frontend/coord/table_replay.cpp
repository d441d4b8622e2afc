#include "frontend/coord/table_replay.hpp"

#include <pthread.h>

#include <spdlog/spdlog.h>

namespace tandem::frontend {

void apply_feed_ops(const storage::ShardStore& shards, compute::InputHandle& input, const std::vector<FeedOp>& ops) {
  for (const FeedOp& op : ops) {
    switch (op.kind) {
      case FeedOp::Kind::kSend:
        input.send_shared(op.chunk);
        break;
      case FeedOp::Kind::kAdvance:
        if (input.frontier() < op.time) input.advance_to(op.time);
        break;
      case FeedOp::Kind::kStaged: {
        // As Coordinator::feed_staged: earlier commits are released first,
        // so the loader starts with nothing buffered.
        if (input.frontier() < op.time) input.advance_to(op.time);
        compute::SnapshotLoader loader = input.load_snapshot(op.time);
        Status read = shards.scan_staged(op.shard, op.stage, [&](std::string_view row, Diff diff) {
          loader.push(RowRef(row), diff);
        });
        if (!read.is_ok()) spdlog::error("feeding staged write at {} to a new input: {}", op.time, read.message());
        loader.finish();
        break;
      }
    }
  }
}

ReplayThread::ReplayThread() {
  thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "table-replay");
    run();
  });
}

ReplayThread::~ReplayThread() { stop(); }

void ReplayThread::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    jobs_.clear();
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void ReplayThread::submit(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void ReplayThread::run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

}  // namespace tandem::frontend
