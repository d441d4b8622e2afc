#include "storage/timestamp_oracle.hpp"

#include <algorithm>
#include <chrono>
#include <string>

namespace tandem::storage {
namespace {

constexpr const char* kHighWaterKey = "oracle/high_water";

std::atomic<int64_t> wall_clock_offset_ms{0};

std::string encode_mark(Timestamp mark) {
  std::string out;
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((mark >> shift) & 0xff));
  return out;
}

}  // namespace

Timestamp TimestampOracle::system_wall_clock() {
  return static_cast<Timestamp>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count() +
                                wall_clock_offset_ms.load(std::memory_order_relaxed));
}

void TimestampOracle::set_system_wall_clock_offset(int64_t ms) {
  wall_clock_offset_ms.store(ms, std::memory_order_relaxed);
}

Result<std::unique_ptr<TimestampOracle>> TimestampOracle::open(DurableStore& durable,
                                                               WallClock clock) {
  std::unique_ptr<TimestampOracle> oracle(new TimestampOracle(durable, std::move(clock)));
  TANDEM_ASSIGN_OR_RETURN(auto stored, durable.get(Family::kMeta, kHighWaterKey));
  if (stored) {
    if (stored->size() != 8) {
      return Status::error(sqlstate::kDataCorrupted, "malformed timestamp oracle high-water mark");
    }
    Timestamp mark = 0;
    for (char c : *stored) mark = (mark << 8) | static_cast<uint8_t>(c);
    oracle->high_water_ = mark;
    // Every timestamp issued before the restart is < mark.
    oracle->last_write_ = mark == 0 ? 0 : mark - 1;
  }
  oracle->read_ts_.store(oracle->last_write_, std::memory_order_release);
  return oracle;
}

Result<Timestamp> TimestampOracle::write_ts() {
  std::lock_guard<std::mutex> lock(mutex_);
  Timestamp ts = std::max(last_write_ + 1, clock_());
  if (ts >= high_water_) {
    Timestamp mark = ts + kAllocationWindow;
    TANDEM_RETURN_IF_ERROR(durable_.put(Family::kMeta, kHighWaterKey, encode_mark(mark)));
    high_water_ = mark;
    ++persisted_marks_;
  }
  last_write_ = ts;
  return ts;
}

void TimestampOracle::apply_write(Timestamp ts) {
  Timestamp current = read_ts_.load(std::memory_order_relaxed);
  while (current < ts &&
         !read_ts_.compare_exchange_weak(current, ts, std::memory_order_release,
                                         std::memory_order_relaxed)) {
  }
}

uint64_t TimestampOracle::persisted_marks() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return persisted_marks_;
}

}  // namespace tandem::storage
