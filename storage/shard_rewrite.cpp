// ShardStore's streaming history rewrite (steps 1-4 of "Compaction" in
// storage/shard_store.hpp): the updates below since are sorted into bounded
// runs, merged with the shard's base a few chunks at a time, and the
// consolidated result staged as chunks before one small request commits it.
// Runs on the compaction thread, without the store's mutex; every write is a
// request through the committer.

#include <algorithm>
#include <memory>
#include <optional>

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>

#include "storage/key_delete.hpp"
#include "storage/shard_codec.hpp"
#include "storage/shard_request.hpp"
#include "storage/shard_scan.hpp"
#include "storage/shard_store.hpp"

namespace tandem::storage {
namespace {

// Bytes of updates a rewrite holds in memory, and the most it ever held.
struct Meter {
  uint64_t held = 0;
  uint64_t peak = 0;
  void add(uint64_t n) {
    held += n;
    peak = std::max(peak, held);
  }
  void sub(uint64_t n) { held -= n; }
};

// A source of (row, diff) sorted by row: next() moves to the next entry
// (false at the end or on an error, see status()); row() stays valid until
// the next call.
class SortedSource {
 public:
  virtual ~SortedSource() = default;
  virtual bool next() = 0;
  std::string_view row() const { return row_; }
  Diff diff() const { return diff_; }
  const Status& status() const { return status_; }

 protected:
  std::string_view row_;
  Diff diff_ = 0;
  Status status_;
};

// The chunks stored in [begin, end) of the shards family, one in memory at
// a time (the iterator's current value).
class ChunkCursor : public SortedSource {
 public:
  ChunkCursor(const DurableStore& durable, std::string begin, std::string end, const rocksdb::Snapshot* snapshot,
              Meter& meter)
      : meter_(meter), it_(durable, std::move(begin), std::move(end), snapshot) {}
  ~ChunkCursor() override { meter_.sub(held_); }

  bool next() override {
    while (true) {
      if (reader_ && reader_->next(&row_, &diff_)) return true;
      if (reader_ && reader_->corrupt()) {
        status_ = Status::error(sqlstate::kDataCorrupted, "undecodable chunk in a shard's history");
        return false;
      }
      if (reader_) it_.next();  // else at the first chunk already
      meter_.sub(held_);
      held_ = 0;
      if (!it_.valid()) {
        status_ = it_.status();
        return false;
      }
      // The merge works through the chunk while it writes its output
      // through the same family.
      it_.detach(0);
      held_ = it_.value().size();
      meter_.add(held_);
      reader_.emplace(it_.value());
    }
  }

 private:
  Meter& meter_;
  ShardRangeIterator it_;
  std::optional<BatchReader> reader_;
  uint64_t held_ = 0;
};

using Rows = std::vector<std::pair<std::string, Diff>>;

// A sorted, consolidated run still in memory.
class MemoryRun : public SortedSource {
 public:
  explicit MemoryRun(const Rows& rows) : rows_(rows) {}
  bool next() override {
    if (next_ == rows_.size()) return false;
    row_ = rows_[next_].first;
    diff_ = rows_[next_++].second;
    return true;
  }

 private:
  const Rows& rows_;
  size_t next_ = 0;
};

// Merges sorted sources into `emit(row, sum)` in row order, equal rows
// summed and zero sums dropped. XX001 if a source is not sorted.
Status merge(std::vector<std::unique_ptr<SortedSource>>& sources,
             const std::function<Status(std::string_view, Diff)>& emit) {
  auto greater = [&](size_t a, size_t b) { return sources[a]->row() > sources[b]->row(); };
  std::vector<size_t> heap;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i]->next()) {
      heap.push_back(i);
    } else {
      TANDEM_RETURN_IF_ERROR(sources[i]->status());
    }
  }
  std::make_heap(heap.begin(), heap.end(), greater);
  std::string current;
  Diff sum = 0;
  bool have = false;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), greater);
    size_t i = heap.back();
    heap.pop_back();
    std::string_view row = sources[i]->row();
    if (!have || row != current) {
      if (have && row < current) {
        return Status::error(sqlstate::kDataCorrupted, "a shard's compacted history is not sorted");
      }
      if (have && sum != 0) TANDEM_RETURN_IF_ERROR(emit(current, sum));
      current.assign(row);
      sum = 0;
      have = true;
    }
    sum += sources[i]->diff();
    if (sources[i]->next()) {
      heap.push_back(i);
      std::push_heap(heap.begin(), heap.end(), greater);
    } else {
      TANDEM_RETURN_IF_ERROR(sources[i]->status());
    }
  }
  if (have && sum != 0) TANDEM_RETURN_IF_ERROR(emit(current, sum));
  return Status::ok();
}

// Encodes entries into chunks of about `chunk_bytes`, handing each full one
// to `flush`.
class ChunkWriter {
 public:
  ChunkWriter(size_t chunk_bytes, Meter& meter, std::function<Status(std::string)> flush)
      : chunk_bytes_(chunk_bytes), meter_(meter), flush_(std::move(flush)) {}
  ~ChunkWriter() { meter_.sub(chunk_.size()); }

  Status add(std::string_view row, Diff diff) {
    size_t before = chunk_.size();
    append_batch_entry(&chunk_, row, diff);
    meter_.add(chunk_.size() - before);
    written_ += chunk_.size() - before;
    if (chunk_.size() < chunk_bytes_) return Status::ok();
    return flush();
  }
  Status flush() {
    if (chunk_.empty()) return Status::ok();
    meter_.sub(chunk_.size());
    return flush_(std::exchange(chunk_, std::string()));
  }
  // The last, partial chunk (the caller writes it).
  std::string take_rest() {
    meter_.sub(chunk_.size());
    return std::exchange(chunk_, std::string());
  }
  uint64_t written() const { return written_; }

 private:
  const size_t chunk_bytes_;
  Meter& meter_;
  std::function<Status(std::string)> flush_;
  std::string chunk_;
  uint64_t written_ = 0;
};

struct SnapshotHold {
  const DurableStore& durable;
  const rocksdb::Snapshot* snapshot;
  ~SnapshotHold() { durable.db()->ReleaseSnapshot(snapshot); }
};

}  // namespace

Status ShardStore::rewrite_history(ShardId shard, uint64_t incarnation, Timestamp since, Timestamp base_time,
                                   uint64_t* base_bytes) {
  const ShardCompactionOptions& o = compaction_options_;
  Meter meter;
  bool cleared = false;
  // What an interrupted rewrite at this since staged (its base and runs).
  auto collect_interrupted = [&](std::vector<std::string>* keys) {
    TANDEM_RETURN_IF_ERROR(collect_shard_keys(durable_, shard_part_bound(shard, since, kCompactedPart),
                                              shard_part_bound(shard, since, kCompactedPart + 1), nullptr, keys));
    return collect_shard_keys(durable_, shard_part_bound(shard, since, kRunPart),
                              shard_part_bound(shard, since, kRunPart + 1), nullptr, keys);
  };
  auto stage = [&](uint8_t part, uint32_t chunk, std::string value) {
    auto r = std::make_unique<Request>();
    r->kind = Request::Kind::kStage;
    r->shard = shard;
    r->time = since;
    r->incarnation = incarnation;
    r->chunks.push_back(StagedChunk{part, chunk, std::move(value)});
    if (!cleared) TANDEM_RETURN_IF_ERROR(collect_interrupted(&r->deleted_keys));
    cleared = true;
    return submit(std::move(r));
  };
  SnapshotHold hold{durable_, durable_.db()->GetSnapshot()};

  // 1. The updates below since (all but the base) as sorted runs; the last
  // one stays in memory.
  struct Run {
    uint32_t first = 0;
    uint32_t end = 0;
  };
  std::vector<Run> runs;
  uint32_t next_chunk = 0;
  auto write_run = [&](const std::function<Status(const std::function<Status(std::string_view, Diff)>&)>& produce) {
    Run run{next_chunk, next_chunk};
    ChunkWriter writer(o.chunk_bytes, meter, [&](std::string value) { return stage(kRunPart, run.end++, std::move(value)); });
    TANDEM_RETURN_IF_ERROR(produce([&](std::string_view row, Diff diff) { return writer.add(row, diff); }));
    TANDEM_RETURN_IF_ERROR(writer.flush());
    next_chunk = run.end;
    runs.push_back(run);
    return Status::ok();
  };
  Rows buffer;
  uint64_t buffer_bytes = 0;
  auto spill = [&] {
    consolidate_rows(&buffer);
    Status s = write_run([&](const auto& emit) {
      for (const auto& [row, diff] : buffer) TANDEM_RETURN_IF_ERROR(emit(row, diff));
      return Status::ok();
    });
    buffer.clear();
    meter.sub(buffer_bytes);
    buffer_bytes = 0;
    return s;
  };
  bool has_base = false;
  uint64_t removed_batches = 0;  // visible chunks below since, base included
  uint64_t removed_bytes = 0;
  uint64_t folded_bytes = 0;
  uint64_t folded_batches = 0;
  std::optional<Timestamp> last_time;
  std::vector<uint64_t> folded_stages;
  TANDEM_RETURN_IF_ERROR(scan_shard_keys(
      durable_, shard, 0, since, hold.snapshot,
      [&](const DataKey& key, std::string_view value) {
        if (key.part == kRunPart || (key.part == kCompactedPart && key.time > base_time)) {
          return Status::ok();  // left by an interrupted rewrite
        }
        ++removed_batches;
        removed_bytes += value.size();
        if (key.part == kCompactedPart && key.time == base_time) {
          has_base = true;  // merged as it is, below
          return Status::ok();
        }
        folded_bytes += value.size();
        if (last_time != key.time) ++folded_batches;
        last_time = key.time;
        BatchReader reader(value);
        std::string_view row;
        Diff diff = 0;
        while (reader.next(&row, &diff)) {
          buffer.emplace_back(std::string(row), diff);
          buffer_bytes += row.size() + sizeof(Rows::value_type);
          meter.add(row.size() + sizeof(Rows::value_type));
          if (buffer_bytes >= o.run_bytes) TANDEM_RETURN_IF_ERROR(spill());
        }
        if (reader.corrupt()) return Status::error(sqlstate::kDataCorrupted, "undecodable update batch");
        return Status::ok();
      },
      [&](uint64_t stage) { folded_stages.push_back(stage); }));
  consolidate_rows(&buffer);

  auto run_cursor = [&](const Run& run) {
    return std::make_unique<ChunkCursor>(durable_, shard_data_key(shard, since, kRunPart, run.first),
                                         shard_data_key(shard, since, kRunPart, run.end), nullptr, meter);
  };
  // 2. Merge spilled runs fan_in at a time until they, the base and the
  // buffer fit one merge.
  while (runs.size() + 2 > o.fan_in && runs.size() > 1) {
    size_t n = std::min(o.fan_in, runs.size());
    std::vector<std::unique_ptr<SortedSource>> sources;
    for (size_t i = 0; i < n; ++i) sources.push_back(run_cursor(runs[i]));
    std::vector<Run> rest(runs.begin() + static_cast<std::ptrdiff_t>(n), runs.end());
    runs = std::move(rest);
    TANDEM_RETURN_IF_ERROR(write_run([&](const auto& emit) { return merge(sources, emit); }));
  }

  // 3. The new base: runs, buffer and old base merged, staged in chunks.
  std::vector<std::unique_ptr<SortedSource>> sources;
  for (const Run& run : runs) sources.push_back(run_cursor(run));
  if (!buffer.empty()) sources.push_back(std::make_unique<MemoryRun>(buffer));
  if (has_base) {
    sources.push_back(std::make_unique<ChunkCursor>(durable_, shard_part_bound(shard, base_time, kCompactedPart),
                                                    shard_part_bound(shard, base_time, kCompactedPart + 1),
                                                    hold.snapshot, meter));
  }
  uint32_t out_chunk = 0;
  ChunkWriter out(o.chunk_bytes, meter, [&](std::string value) { return stage(kCompactedPart, out_chunk++, std::move(value)); });
  TANDEM_RETURN_IF_ERROR(merge(sources, [&](std::string_view row, Diff diff) { return out.add(row, diff); }));
  sources.clear();
  meter.sub(buffer_bytes);
  buffer = Rows();

  // 4. The commit: the last chunk, and the deletion of the old history.
  std::vector<StagedChunk> last;
  if (std::string rest = out.take_rest(); !rest.empty()) last.push_back(StagedChunk{kCompactedPart, out_chunk, std::move(rest)});
  *base_bytes = out.written();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.rewrite_peak_bytes = std::max(stats_.rewrite_peak_bytes, meter.peak);
  }
  auto commit = std::make_unique<Request>();
  commit->kind = Request::Kind::kRewrite;
  commit->shard = shard;
  commit->time = since;
  commit->incarnation = incarnation;
  commit->chunks = std::move(last);
  commit->folded_bytes = folded_bytes;
  commit->folded_batches = folded_batches;
  commit->removed_batches = removed_batches;
  commit->removed_bytes = removed_bytes;
  commit->base_batches = out_chunk + commit->chunks.size();
  commit->base_bytes = out.written();
  // The history below since (as the snapshot read it: nothing else writes
  // there), the folded stages' chunks and the runs; the staged base (and the
  // appends at since) stay.
  std::vector<std::string>& deleted = commit->deleted_keys;
  TANDEM_RETURN_IF_ERROR(collect_shard_keys(durable_, shard_data_bound(shard, 0), shard_data_bound(shard, since),
                                            hold.snapshot, &deleted));
  for (uint64_t stage_id : folded_stages) {
    auto [first, last] = staged_range(shard, stage_id);
    TANDEM_RETURN_IF_ERROR(collect_shard_keys(durable_, first, last, hold.snapshot, &deleted));
  }
  if (!cleared) {
    TANDEM_RETURN_IF_ERROR(collect_interrupted(&deleted));
  } else {
    TANDEM_RETURN_IF_ERROR(collect_shard_keys(durable_, shard_part_bound(shard, since, kRunPart),
                                              shard_part_bound(shard, since, kRunPart + 1), nullptr, &deleted));
  }
  return submit(std::move(commit));
}

}  // namespace tandem::storage
