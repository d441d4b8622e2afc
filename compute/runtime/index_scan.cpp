#include "compute/runtime/index_scan.hpp"

#include <spdlog/spdlog.h>

#include "common/eval_context.hpp"
#include "compute/arrangement/spill_probe.hpp"
#include "compute/dataflow/error_row.hpp"
#include "compute/runtime/peek_reader.hpp"

#include <algorithm>

namespace tandem::compute {

IndexScan::IndexScan(const Peek& peek, std::vector<Part> parts)
    : time_(peek.time), mfp_(peek.mfp), parts_(std::move(parts)) {
  if (peek.literal_keys) {
    keys_.emplace();
    for (const Row& k : *peek.literal_keys) keys_->push_back(normalize_key(k));
    std::sort(keys_->begin(), keys_->end());
    keys_->erase(std::unique(keys_->begin(), keys_->end()), keys_->end());
  }
}

Result<std::unique_ptr<IndexScan>> IndexScan::open(const Peek& peek, std::vector<Part> parts) {
  for (const Part& part : parts) {
    // The snapshots were taken under holds at peek.time (see read_peek).
    if (peek.time < part.first->since || peek.time < part.second->since) {
      spdlog::error("internal error: index {} scanned at {} below its since {}", peek.target, peek.time,
                    std::max(part.first->since, part.second->since));
      return Status::error(sqlstate::kInternalError, "internal error: index " + std::to_string(peek.target) +
                                                         " was compacted past the read's timestamp " +
                                                         std::to_string(peek.time));
    }
    CursorList errs(part.second->batches);
    Status first;
    for_each_as_of(errs, peek.time, [&](std::string_view key, std::string_view, Diff diff) {
      if (diff > 0 && first.is_ok()) first = status_from_error_row(RowRef(key));
    });
    if (!first.is_ok()) return evaluation_error(first);
  }
  // Only a full scan asks (a streamed one): a lookup's walk decided already,
  // and a second probe of its keys would cost every point lookup.
  const bool pages = !peek.literal_keys && would_page(peek, parts);
  std::unique_ptr<IndexScan> scan(new IndexScan(peek, std::move(parts)));
  scan->pages_ = pages;
  scan->start_part();
  return scan;
}

bool IndexScan::would_page(const Peek& peek, const std::vector<Part>& parts) {
  std::vector<Row> rows;
  std::vector<std::string_view> keys;
  if (peek.literal_keys) {
    for (const Row& k : *peek.literal_keys) rows.push_back(normalize_key(k));
    std::sort(rows.begin(), rows.end());
    for (const Row& k : rows) keys.push_back(k.bytes());
  }
  for (const Part& part : parts) {
    if (compute::would_page(part.first->batches, peek.literal_keys ? &keys : nullptr)) return true;
    if (compute::would_page(part.second->batches, nullptr)) return true;
  }
  return false;
}

void IndexScan::start_part() {
  cursor_.reset();
  for (; part_ < parts_.size(); ++part_) {
    cursor_ = std::make_unique<CursorList>(parts_[part_].first->batches);
    key_ = 0;
    if (seek_present_key()) return;
  }
  cursor_.reset();
}

bool IndexScan::seek_present_key() {
  if (!keys_) return cursor_->key_valid();
  for (; key_ < keys_->size(); ++key_) {
    const std::string_view key = (*keys_)[key_].bytes();
    cursor_->seek_key(key);
    if (!cursor_->key_valid()) return false;
    if (cursor_->key() == key) return true;
  }
  return false;
}

bool IndexScan::advance_key() {
  if (!keys_) {
    cursor_->step_key();
    return cursor_->key_valid();
  }
  ++key_;
  return seek_present_key();
}

Result<std::vector<std::pair<Row, Diff>>> IndexScan::next(std::size_t fuel) {
  std::vector<std::pair<Row, Diff>> rows;
  EvalContext ctx;
  Row out;
  while (!done() && fuel > 0) {
    CursorList& cursor = *cursor_;
    // One (key, val) position per unit of fuel; the cursor stays where the
    // fuel ran out.
    bool more = true;
    while (more && fuel > 0) {
      for (; cursor.val_valid() && fuel > 0; cursor.step_val(), --fuel) {
        Diff sum = 0;
        cursor.for_each_time([&](Timestamp t, Diff d) {
          if (t <= time_) sum += d;
        });
        if (sum == 0) continue;
        if (sum < 0) {
          part_ = parts_.size();
          return Status::error(sqlstate::kInternalError, "invalid data in index: negative multiplicity");
        }
        auto kept = mfp_.evaluate_row(RowRef(cursor.val()), ctx, &out);
        if (!kept.ok()) {
          part_ = parts_.size();
          return evaluation_error(kept.status());
        }
        if (*kept) {
          rows.emplace_back(std::move(out), sum);
          out = Row();
        }
      }
      if (!cursor.val_valid()) more = advance_key();
    }
    if (!more) {
      ++part_;
      start_part();
    }
  }
  return rows;
}

}  // namespace tandem::compute
