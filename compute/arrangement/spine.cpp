#include "compute/arrangement/spine.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <utility>

namespace tandem::compute {

namespace {

constexpr std::int64_t kUnlimitedFuel = std::numeric_limits<std::int64_t>::max();

std::size_t size_class(std::uint64_t updates) { return std::bit_width(updates); }

}  // namespace

std::uint64_t Spine::Layer::update_count() const {
  std::uint64_t n = 0;
  if (older != nullptr) n += older->update_count();
  if (newer != nullptr) n += newer->update_count();
  return n;
}

bool Spine::Layer::complete() const {
  return state == LayerState::kDouble && (merger == nullptr || merger->done());
}

Spine::Spine(Timestamp lower, SpineOptions options)
    : options_(options), upper_(lower), since_(lower) {}

void Spine::insert(BatchPtr batch) {
  assert(batch->lower() == upper_);
  upper_ = batch->upper();
  const std::size_t index = size_class(batch->update_count());
  introduce(std::move(batch), index);
}

void Spine::set_logical_compaction(Timestamp since) { since_ = std::max(since_, since); }

void Spine::work_on(Merger& merger, std::int64_t& fuel) {
  const std::uint64_t before = merger.progress();
  merger.work(fuel);
  merge_work_ += merger.progress() - before;
}

void Spine::introduce(BatchPtr batch, std::size_t index) {
  apply_fuel((kFuelPerUpdate << index) * options_.effort);
  roll_up(index);
  insert_at(std::move(batch), index);
  tidy_layers();
}

void Spine::apply_fuel(std::int64_t fuel) {
  // Each merge gets the full amount: the bound argument in the header needs
  // every layer to progress in proportion to the inserted updates.
  for (std::size_t index = 0; index < layers_.size(); ++index) {
    Layer& layer = layers_[index];
    if (layer.state != LayerState::kDouble) continue;
    if (layer.merger != nullptr) {
      std::int64_t layer_fuel = fuel;
      work_on(*layer.merger, layer_fuel);
    }
    if (layers_[index].complete()) insert_at(complete_at(index), index + 1);
  }
}

void Spine::roll_up(std::size_t index) {
  if (layers_.size() <= index) layers_.resize(index + 1);
  const bool any_below = std::any_of(layers_.begin(), layers_.begin() + index,
                                     [](const Layer& l) { return l.state != LayerState::kVacant; });
  if (!any_below) return;
  BatchPtr merged;
  for (std::size_t i = 0; i < index; ++i) {
    insert_at(std::move(merged), i);
    merged = complete_at(i);
  }
  insert_at(std::move(merged), index);
  if (layers_[index].state == LayerState::kDouble) insert_at(complete_at(index), index + 1);
}

void Spine::insert_at(BatchPtr batch, std::size_t index) {
  if (layers_.size() <= index) layers_.resize(index + 1);
  if (layers_[index].state == LayerState::kDouble) {
    // The fuel estimate fell short: finish this merge now and promote it.
    insert_at(complete_at(index), index + 1);
  }
  Layer& layer = layers_[index];
  if (layer.state == LayerState::kVacant) {
    layer.state = LayerState::kSingle;
    layer.older = std::move(batch);
    return;
  }
  layer.state = LayerState::kDouble;
  layer.newer = std::move(batch);
  if (layer.older != nullptr && layer.newer != nullptr) {
    layer.merger = std::make_unique<Merger>(layer.older, layer.newer, since_);
  }
}

BatchPtr Spine::complete_at(std::size_t index) {
  Layer& layer = layers_[index];
  BatchPtr result;
  switch (layer.state) {
    case LayerState::kVacant:
      break;
    case LayerState::kSingle:
      result = std::move(layer.older);
      break;
    case LayerState::kDouble:
      if (layer.merger != nullptr) {
        std::int64_t fuel = kUnlimitedFuel;
        work_on(*layer.merger, fuel);
        result = layer.merger->finish();
      } else {
        result = layer.older != nullptr ? std::move(layer.older) : std::move(layer.newer);
      }
      break;
  }
  layer = Layer{};
  return result;
}

void Spine::tidy_layers() {
  // If the top layer holds one batch that compaction made small, let it sink
  // toward its size class, as long as the layers below hold few enough
  // updates that the invariant behind the work bound survives.
  if (layers_.empty()) return;
  std::size_t length = layers_.size();
  if (layers_[length - 1].state != LayerState::kSingle) return;
  const std::size_t appropriate = size_class(layers_[length - 1].update_count());
  while (appropriate < length - 1) {
    Layer& below = layers_[length - 2];
    if (below.state == LayerState::kVacant ||
        (below.state == LayerState::kSingle && below.older == nullptr)) {
      layers_.erase(layers_.begin() + (length - 2));
      length = layers_.size();
      continue;
    }
    if (below.state == LayerState::kSingle) {
      std::uint64_t smaller = 0;
      for (std::size_t i = 0; i + 2 < length; ++i) {
        if (layers_[i].state == LayerState::kSingle) smaller += std::uint64_t{1} << i;
        if (layers_[i].state == LayerState::kDouble) smaller += std::uint64_t{2} << i;
      }
      if (smaller <= (std::uint64_t{1} << length) / 8) {
        // Layer length-2's batch is newer than the top one: remove the layer
        // under the top, then insert the batch on top of the one that sank.
        BatchPtr batch = std::move(below.older);
        layers_.erase(layers_.begin() + (length - 2));
        insert_at(std::move(batch), length - 2);
      }
    }
    return;
  }
}

bool Spine::reduced() const {
  int non_empty = 0;
  int batches = 0;
  bool stale = false;
  for (const Layer& layer : layers_) {
    if (layer.state == LayerState::kDouble) return false;
    if (layer.older == nullptr) continue;
    ++batches;
    if (layer.older->update_count() == 0) continue;
    ++non_empty;
    // Compacted to an older since than the spine's: merging it with an
    // (empty) batch after it advances its times and may consolidate it.
    stale |= layer.older->update_count() > 1 && layer.older->since() < since_ && layer.older->lower() < since_;
  }
  return non_empty == 0 || (non_empty == 1 && !(stale && batches > 1));
}

void Spine::exert(std::int64_t& fuel) {
  tidy_layers();
  if (reduced() || fuel <= 0) return;
  const std::uint64_t before = merge_work_;
  const bool merging = std::any_of(layers_.begin(), layers_.end(),
                                   [](const Layer& l) { return l.state == LayerState::kDouble; });
  if (merging) {
    apply_fuel(fuel);
  } else {
    // Pretend `fuel` updates arrived: this rolls up the layers below that
    // size and starts merges above it.
    introduce(nullptr, size_class(static_cast<std::uint64_t>(fuel) - 1));
  }
  fuel -= static_cast<std::int64_t>(merge_work_ - before);
}

std::vector<BatchPtr> Spine::batches() const {
  std::vector<BatchPtr> out;
  for (auto it = layers_.rbegin(); it != layers_.rend(); ++it) {
    if (it->older != nullptr) out.push_back(it->older);
    if (it->newer != nullptr) out.push_back(it->newer);
  }
  return out;
}

std::uint64_t Spine::update_count() const {
  std::uint64_t n = 0;
  for (const Layer& layer : layers_) n += layer.update_count();
  return n;
}

namespace {

// `bytes` summed over the layers' finished batches. An unfinished merge's
// partial output is not counted (it is transient).
template <class Layers, class Bytes>
std::uint64_t sum_over_batches(const Layers& layers, Bytes bytes) {
  std::uint64_t total = 0;
  for (const auto& layer : layers) {
    if (layer.older != nullptr) total += bytes(*layer.older);
    if (layer.newer != nullptr) total += bytes(*layer.newer);
  }
  return total;
}

}  // namespace

std::uint64_t Spine::memory_bytes() const {
  return sum_over_batches(layers_, [](const Batch& b) { return b.memory_bytes(); });
}

std::uint64_t Spine::spilled_bytes() const {
  return sum_over_batches(layers_, [](const Batch& b) { return b.spilled_bytes(); });
}

std::size_t Spine::merges_in_progress() const {
  return std::count_if(layers_.begin(), layers_.end(),
                       [](const Layer& l) { return l.merger != nullptr && !l.merger->done(); });
}

}  // namespace tandem::compute
