#include "compute/runtime/peek_reader.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "compute/arrangement/cursor_list.hpp"
#include "compute/dataflow/error_row.hpp"
#include "compute/dataflow/mfp_eval.hpp"

namespace tandem::compute {

Row normalize_key(RowRef key) {
  RowArena arena;
  Row out;
  RowPacker packer(&out);
  packer.set_normalize_numeric(true);
  for (const Datum& d : unpack(key, &arena)) packer.push(d);
  return out;
}

Result<std::vector<std::pair<Row, Diff>>> read_peek(const Peek& peek, const TraceSnapshot& oks,
                                                     const TraceSnapshot& errs) {
  // Every caller holds the traces at peek.time: a since past it is a broken
  // hold, and the snapshot is no longer exact there.
  if (peek.time < oks.since || peek.time < errs.since) {
    spdlog::error("internal error: index {} read at {} below its since {}", peek.target, peek.time,
                  std::max(oks.since, errs.since));
    return Status::error(sqlstate::kInternalError,
                         "internal error: index " + std::to_string(peek.target) +
                             " was compacted past the read's timestamp " + std::to_string(peek.time));
  }
  {
    CursorList cursor(errs.batches);
    Status first;
    for_each_as_of(cursor, peek.time, [&](std::string_view key, std::string_view, Diff diff) {
      if (diff > 0 && first.is_ok()) first = status_from_error_row(RowRef(key));
    });
    if (!first.is_ok()) return evaluation_error(first);
  }
  std::vector<std::pair<Row, Diff>> rows;
  MfpEvaluator mfp(peek.mfp);
  EvalContext ctx;
  Status failed;
  Row out;
  auto visit_val = [&](std::string_view val, Diff diff) {
    if (!failed.is_ok()) return;
    if (diff < 0) {
      failed = Status::error(sqlstate::kInternalError, "invalid data in index: negative multiplicity");
      return;
    }
    auto kept = mfp.evaluate_row(RowRef(val), ctx, &out);
    if (!kept.ok()) {
      failed = evaluation_error(kept.status());
    } else if (*kept) {
      rows.emplace_back(std::move(out), diff);
      out = Row();
    }
  };
  CursorList cursor(oks.batches);
  if (peek.literal_keys) {
    std::vector<Row> keys;
    for (const Row& k : *peek.literal_keys) keys.push_back(normalize_key(k));
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    for (const Row& key : keys) {
      cursor.seek_key(key.bytes());
      if (!cursor.key_valid() || cursor.key() != key.bytes()) continue;
      for (; cursor.val_valid(); cursor.step_val()) {
        Diff sum = 0;
        cursor.for_each_time([&](Timestamp t, Diff d) {
          if (t <= peek.time) sum += d;
        });
        if (sum != 0) visit_val(cursor.val(), sum);
      }
    }
  } else {
    for_each_as_of(cursor, peek.time, [&](std::string_view, std::string_view val, Diff diff) { visit_val(val, diff); });
  }
  if (!failed.is_ok()) return failed;
  return rows;
}

}  // namespace tandem::compute
