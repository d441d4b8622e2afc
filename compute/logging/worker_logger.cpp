#include "compute/logging/worker_logger.hpp"

#include <algorithm>
#include <cstdio>
#include <initializer_list>

namespace tandem::compute::logging {
namespace {

Row make_row(std::initializer_list<Datum> datums) {
  Row row;
  RowPacker packer(&row);
  for (const Datum& d : datums) packer.push(d);
  return row;
}

Datum int8(std::int64_t v) { return Datum::from_int64(v); }
Datum text(std::string_view s) { return Datum::from_string(s); }
Datum time(Timestamp t) { return Datum::from_mz_timestamp(t); }

// A uuid-shaped id for a logged read (mz_active_peeks.id is a uuid).
std::string peek_uuid(std::uint64_t seq) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "00000000-0000-0000-0000-%012llx", static_cast<unsigned long long>(seq));
  return buf;
}

std::vector<Row>& rows_of(LogRows& rows, LogSource source) { return rows[static_cast<std::size_t>(source)]; }

void dataflow_rows(const LoggedDataflow& df, Datum w, const IdFormatter& format_id, LogRows& rows) {
  using S = LogSource;
  rows_of(rows, S::kDataflows).push_back(make_row({int8(df.id), w, text(df.name)}));
  for (const LoggedOperator& op : df.operators) {
    rows_of(rows, S::kOperators).push_back(make_row({int8(op.id), w, text(op.name), int8(df.id), text(df.name)}));
    rows_of(rows, S::kScheduling).push_back(make_row({int8(op.id), w, int8(static_cast<std::int64_t>(op.elapsed_ns))}));
    if (const auto& a = op.arrangement) {
      rows_of(rows, S::kArrangements)
          .push_back(make_row({int8(op.id), w, int8(df.id), text(df.name), int8(a->records), int8(a->batches),
                               int8(a->size), int8(a->capacity), int8(a->allocations), int8(a->resident_bytes),
                               int8(a->spilled_bytes)}));
    }
  }
  for (const LoggedExport& e : df.exports) {
    const std::string id = format_id(e.id);
    rows_of(rows, S::kExports).push_back(make_row({text(id), w, int8(df.id)}));
    rows_of(rows, S::kFrontiers).push_back(make_row({text(id), w, time(e.upper)}));
    rows_of(rows, S::kErrorCounts).push_back(make_row({text(id), w, int8(e.error_count)}));
    for (const LoggedImport& i : df.imports) {
      rows_of(rows, S::kImportFrontiers).push_back(make_row({text(id), w, text(format_id(i.id)), time(i.frontier)}));
    }
  }
}

void histogram_rows(const std::array<std::uint64_t, 64>& counts, const std::string& label, Datum w,
                    std::vector<Row>& out) {
  for (std::size_t b = 0; b < counts.size(); ++b) {
    if (counts[b] == 0) continue;
    const auto bucket = static_cast<std::int64_t>(std::uint64_t{1} << b);
    out.push_back(make_row({text(label), w, int8(bucket), int8(static_cast<std::int64_t>(counts[b]))}));
  }
}

}  // namespace

LogRows log_rows(const LogState& state, std::size_t worker, const std::string& runtime, const IdFormatter& format_id) {
  using S = LogSource;
  LogRows rows;
  const Datum w = int8(static_cast<std::int64_t>(worker));
  for (const LoggedDataflow& df : state.dataflows) dataflow_rows(df, w, format_id, rows);
  if (state.steps != nullptr) histogram_rows(*state.steps, runtime, w, rows_of(rows, S::kStepDurations));
  if (state.peer_steps) histogram_rows(state.peer_steps->second, state.peer_steps->first, w, rows_of(rows, S::kStepDurations));
  if (state.peeks) {
    for (const PeekLog::Active& a : state.peeks->active) {
      rows_of(rows, S::kActivePeeks)
          .push_back(make_row({text(peek_uuid(a.seq)), w, text(format_id(a.target)), text("index"), time(a.time)}));
    }
    histogram_rows(state.peeks->histogram, "index", w, rows_of(rows, S::kPeekDurations));
    for (const PeekLog::Finished& f : state.peeks->recent) {
      rows_of(rows, S::kRecentPeeks)
          .push_back(make_row({text(peek_uuid(f.seq)), w, text(format_id(f.target)), text(f.runtime),
                               text(read_path_name(f.path)), int8(static_cast<std::int64_t>(f.duration_ns)),
                               time(f.finished_at)}));
    }
  }
  return rows;
}

std::array<std::vector<Update>, kLogSourceCount> LogPublisher::publish(const LogRows& rows, Timestamp at) {
  std::array<std::vector<Update>, kLogSourceCount> out;
  for (std::size_t s = 0; s < kLogSourceCount; ++s) {
    std::map<std::string, Diff> next;
    for (const Row& r : rows[s]) ++next[std::string(r.bytes())];
    auto& old = published_[s];
    // Merge the two sorted maps: what left is retracted, what came is added.
    auto a = old.begin();
    auto b = next.begin();
    auto emit = [&](const std::string& row, Diff diff) {
      if (diff != 0) out[s].push_back(Update{Row(), Row(row), at, diff});
    };
    while (a != old.end() || b != next.end()) {
      if (b == next.end() || (a != old.end() && a->first < b->first)) {
        emit(a->first, -a->second);
        ++a;
      } else if (a == old.end() || b->first < a->first) {
        emit(b->first, b->second);
        ++b;
      } else {
        emit(a->first, b->second - a->second);
        ++a;
        ++b;
      }
    }
    old.swap(next);
  }
  return out;
}

WorkerLogger::WorkerLogger(std::size_t worker, std::string runtime, IdFormatter format_id)
    : worker_(worker), runtime_(std::move(runtime)), format_id_(std::move(format_id)) {
  for (auto& feed : feeds_) feed = std::make_shared<SourceFeed>();
}

std::shared_ptr<SourceFeed> WorkerLogger::feed(GlobalId id) const {
  auto source = log_source_of(id);
  return source ? feeds_[static_cast<std::size_t>(*source)] : nullptr;
}

Timestamp WorkerLogger::flush(LogState state) {
  state.steps = &steps_;
  // At the requested time, so the peek that asked sees it.
  const Timestamp at = std::max(frontier_, requested_ == kMinTimestamp ? kMinTimestamp : requested_ - 1);
  auto updates = publisher_.publish(log_rows(state, worker_, runtime_, format_id_), at);
  frontier_ = at + 1;
  for (std::size_t s = 0; s < kLogSourceCount; ++s) {
    UpdateChunk chunk = updates[s].empty() ? nullptr : std::make_shared<const std::vector<Update>>(std::move(updates[s]));
    feeds_[s]->push(std::move(chunk), nullptr, frontier_);
  }
  return at;
}

}  // namespace tandem::compute::logging
