// Spine: a trace of batches with geometric, fueled merging (differential
// dataflow's spine_fueled, for totally ordered time).
//
// Design.
// The spine holds batches that together cover [initial lower, upper()) with
// no gaps: an arrangement's full history, compacted to since(). Batches live
// in *layers*; layer i holds batches of "size class" i, a batch of n updates
// having class bit_width(n) (so 2^(i-1) <= n < 2^i). Each layer is Vacant,
// Single (one batch) or Double (two batches being merged into one). Higher
// layers hold older data: reading the layers from the top down, Double's
// older input first, yields the batches in time order.
//
// Inserting a batch of class i (`introduce`):
//   1. Fuel. Every in-progress merge receives kFuelPerUpdate * 2^i * effort
//      units of work (about that many input updates; see merger.hpp). A merge
//      whose work completes is promoted: its result is inserted one layer up,
//      where it may start the next merge.
//   2. Roll up. All layers below i are merged (forcibly; they are small, at
//      most about 2^i updates together) and placed at layer i, so that the
//      new batch lands in a layer with nothing newer below it.
//   3. Insert at layer i: Vacant becomes Single; Single starts a merge
//      (Double) of the old batch and the new one.
//   4. Tidy: if compaction shrank the top batch, it may move down a layer.
// Why this bounds work: a merge at layer k has inputs of about 2^k updates
// each, and the next batch cannot arrive at layer k before about 2^k more
// updates have been inserted below it; those inserts supply at least
// 8 * 2^k units to the merge, more than the 2^(k+1) it needs. So a merge is
// normally complete before its layer is needed again, and each insert of n
// updates costs O(n) work per layer, O(n log N) in all, instead of one
// insert paying for an O(N) merge. When the estimate fails (consolidation
// changed sizes) a needed merge is completed on the spot: still correct,
// only less smooth.
//
// Logical compaction: set_logical_compaction(since) only records the
// frontier; merges started afterwards advance times below it (physical
// compaction happens through merging). exert(fuel) spends idle time: it
// advances in-progress merges or, when none is running and several non-empty
// batches remain (or one, compacted to an older since than the spine's,
// with an empty batch after it to merge with), introduces a structurally
// empty batch to start one.
//
// Readers see batches() (inputs of unfinished merges included, so the list
// always represents exactly the collection). Each returned batch is exact for
// reads at times >= since().
//
// Threading: a Spine belongs to one thread (its maintenance worker); no
// method is safe to call concurrently. Other threads read published batch
// lists (see trace.hpp / trace_handle.hpp), never the spine itself.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "compute/arrangement/batch.hpp"
#include "compute/arrangement/merger.hpp"

namespace tandem::compute {

struct SpineOptions {
  // Multiplier on merge fuel per inserted update. Higher finishes merges
  // sooner (fewer batches for readers) at the cost of more work per insert.
  std::int64_t effort = 1;
};

class Spine {
 public:
  static constexpr std::int64_t kFuelPerUpdate = 8;

  explicit Spine(Timestamp lower = kMinTimestamp, SpineOptions options = {});
  Spine(const Spine&) = delete;
  Spine& operator=(const Spine&) = delete;

  // REQUIRES batch->lower() == upper(). An empty batch just advances upper.
  void insert(BatchPtr batch);

  // Allows times below `since` to be consolidated. The frontier only moves
  // forward; a smaller value is ignored.
  void set_logical_compaction(Timestamp since);

  // Idle work: spends about `fuel` units of merging (decrementing fuel) to
  // move toward one batch.
  void exert(std::int64_t& fuel);

  Timestamp upper() const { return upper_; }
  Timestamp since() const { return since_; }

  // The batches, oldest first, covering [initial lower, upper()).
  std::vector<BatchPtr> batches() const;

  std::uint64_t update_count() const;
  // Bytes the batches hold in memory, and bytes they wrote to the spill
  // (batch.hpp): a spilled batch keeps only its fences resident.
  std::uint64_t memory_bytes() const;
  std::uint64_t spilled_bytes() const;
  std::size_t merges_in_progress() const;
  std::size_t layer_count() const { return layers_.size(); }
  // Input updates processed by merges since construction (the work measure).
  std::uint64_t merge_work() const { return merge_work_; }

 private:
  enum class LayerState { kVacant, kSingle, kDouble };
  // A null batch is "structurally empty": a placeholder that merges with X to
  // give X, used to push data up the layers (exert, roll up).
  struct Layer {
    LayerState state = LayerState::kVacant;
    BatchPtr older;                  // kSingle: the batch; kDouble: the older input
    BatchPtr newer;                  // kDouble: the newer input
    std::unique_ptr<Merger> merger;  // kDouble with two real inputs
    std::uint64_t update_count() const;
    bool complete() const;
  };

  void introduce(BatchPtr batch, std::size_t index);
  void apply_fuel(std::int64_t fuel);
  void roll_up(std::size_t index);
  void insert_at(BatchPtr batch, std::size_t index);
  BatchPtr complete_at(std::size_t index);
  void tidy_layers();
  bool reduced() const;
  void work_on(Merger& merger, std::int64_t& fuel);

  std::vector<Layer> layers_;
  SpineOptions options_;
  Timestamp upper_;
  Timestamp since_;
  std::uint64_t merge_work_ = 0;
};

}  // namespace tandem::compute
