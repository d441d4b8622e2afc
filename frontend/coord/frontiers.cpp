#include "frontend/coord/frontiers.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

namespace tandem::frontend {

struct CollectionFrontiers::State {
  struct Index {
    Frontier frontier;
    uint64_t cluster = 0;
    bool exported = false;
  };
  std::mutex mutex;  // guards every field
  std::multiset<Timestamp> table_holds;
  Timestamp table_since = kMinTimestamp;
  std::map<compute::GlobalId, std::multiset<Timestamp>> holds;  // ReadHolds, by collection
  std::map<compute::GlobalId, Timestamp> tables;
  std::map<compute::GlobalId, Index> indexes;
  std::map<compute::GlobalId, uint64_t> shards;
  Timestamp table_upper = kMinTimestamp;
  Timestamp lag = 1000;
  std::function<void()> waker;

  // Where the read policy alone would put the index's since: `lag` behind
  // its upper, and never past the times reads take (a collection that is
  // complete, such as a view of constants, has the maximum upper, but reads
  // still come at the tables' times).
  Timestamp policy_since(const Index& index) const {
    const Timestamp upper = std::min(index.frontier.upper, table_upper);
    return upper > lag ? upper - lag : kMinTimestamp;
  }
  // The least hold on `id` (ReadHolds and TableHolds).
  std::optional<Timestamp> least_hold(compute::GlobalId id) const {
    std::optional<Timestamp> least;
    if (!table_holds.empty()) least = *table_holds.begin();
    if (auto it = holds.find(id); it != holds.end() && !it->second.empty()) {
      least = least ? std::min(*least, *it->second.begin()) : *it->second.begin();
    }
    return least;
  }
  void wake() {
    if (waker) waker();
  }
};

struct CollectionFrontiers::TableHold::Entry {
  Entry(std::shared_ptr<State> s, std::multiset<Timestamp>::iterator i) : state(std::move(s)), it(i) {}
  Entry(const Entry&) = delete;
  Entry& operator=(const Entry&) = delete;
  ~Entry() {
    std::lock_guard lock(state->mutex);
    const Timestamp time = *it;
    state->table_holds.erase(it);
    // It was the least: an index's since may have waited on it.
    if (state->table_holds.empty() || time < *state->table_holds.begin()) {
      for (const auto& [id, index] : state->indexes) {
        if (index.frontier.since == time && state->policy_since(index) > time) {
          state->wake();
          break;
        }
      }
    }
  }
  std::shared_ptr<State> state;
  std::multiset<Timestamp>::iterator it;
};

struct CollectionFrontiers::ReadHold::Entry {
  explicit Entry(std::shared_ptr<State> s) : state(std::move(s)) {}
  Entry(const Entry&) = delete;
  Entry& operator=(const Entry&) = delete;
  ~Entry() {
    std::lock_guard lock(state->mutex);
    bool kept_back = false;
    for (const auto& [id, it] : held) {
      auto& times = state->holds[id];
      const Timestamp time = *it;
      times.erase(it);
      if (times.empty()) state->holds.erase(id);
      auto index = state->indexes.find(id);
      if (index == state->indexes.end() || index->second.frontier.since != time) continue;
      kept_back |= state->policy_since(index->second) > time;
    }
    if (kept_back) state->wake();
  }
  std::shared_ptr<State> state;
  std::vector<std::pair<compute::GlobalId, std::multiset<Timestamp>::iterator>> held;
};

CollectionFrontiers::CollectionFrontiers() : state_(std::make_shared<State>()) {}

Timestamp CollectionFrontiers::TableHold::time() const { return entry_ ? *entry_->it : kMinTimestamp; }

std::optional<Timestamp> CollectionFrontiers::ReadHold::time(compute::GlobalId id) const {
  if (!entry_) return std::nullopt;
  std::lock_guard lock(entry_->state->mutex);
  for (const auto& [held, it] : entry_->held) {
    if (held == id) return *it;
  }
  return std::nullopt;
}

CollectionFrontiers::TableHold CollectionFrontiers::hold_tables_at(Timestamp time) const {
  std::lock_guard lock(state_->mutex);
  TableHold hold;
  hold.entry_ = std::make_shared<TableHold::Entry>(
      state_, state_->table_holds.insert(std::max(time, state_->table_since)));
  return hold;
}

CollectionFrontiers::ReadHold CollectionFrontiers::hold(const std::vector<compute::GlobalId>& ids,
                                                        Timestamp at_least) const {
  ReadHold hold;
  auto entry = std::make_shared<ReadHold::Entry>(state_);
  std::lock_guard lock(state_->mutex);
  for (compute::GlobalId id : ids) {
    auto index = state_->indexes.find(id);
    if (index == state_->indexes.end()) continue;
    const Timestamp at = std::max(index->second.frontier.since, at_least);
    entry->held.emplace_back(id, state_->holds[id].insert(at));
  }
  hold.entry_ = std::move(entry);
  return hold;
}

Timestamp CollectionFrontiers::advance_table_since(Timestamp candidate) {
  std::lock_guard lock(state_->mutex);
  if (!state_->table_holds.empty()) candidate = std::min(candidate, *state_->table_holds.begin());
  state_->table_since = std::max(state_->table_since, candidate);
  return state_->table_since;
}

Timestamp CollectionFrontiers::table_since() const {
  std::lock_guard lock(state_->mutex);
  return state_->table_since;
}

void CollectionFrontiers::set_compaction_lag(Timestamp lag) {
  std::lock_guard lock(state_->mutex);
  state_->lag = std::max<Timestamp>(lag, 1);
}

void CollectionFrontiers::set_release_waker(std::function<void()> waker) {
  std::lock_guard lock(state_->mutex);
  state_->waker = std::move(waker);
}

std::vector<CollectionFrontiers::Allowed> CollectionFrontiers::advance_index_sinces() {
  std::vector<Allowed> out;
  std::lock_guard lock(state_->mutex);
  for (auto& [id, index] : state_->indexes) {
    Timestamp since = state_->policy_since(index);
    if (auto least = state_->least_hold(id)) since = std::min(since, *least);
    if (since <= index.frontier.since) continue;
    index.frontier.since = since;
    if (index.exported) out.push_back(Allowed{id, index.cluster, since});
  }
  return out;
}

void CollectionFrontiers::add_table(compute::GlobalId id, Timestamp since) {
  std::lock_guard lock(state_->mutex);
  state_->tables[id] = since;
}

void CollectionFrontiers::add_index(compute::GlobalId id, Timestamp since, uint64_t cluster, bool exported) {
  std::lock_guard lock(state_->mutex);
  state_->indexes[id] = State::Index{Frontier{since, since, false}, cluster, exported};
}

void CollectionFrontiers::set_shard(compute::GlobalId id, uint64_t shard) {
  std::lock_guard lock(state_->mutex);
  state_->shards[id] = shard;
}

std::vector<std::pair<compute::GlobalId, uint64_t>> CollectionFrontiers::shards() const {
  std::lock_guard lock(state_->mutex);
  return {state_->shards.begin(), state_->shards.end()};
}

void CollectionFrontiers::remove(compute::GlobalId id) {
  std::lock_guard lock(state_->mutex);
  state_->tables.erase(id);
  state_->indexes.erase(id);
  state_->shards.erase(id);
}

void CollectionFrontiers::set_table_upper(Timestamp upper) {
  std::lock_guard lock(state_->mutex);
  if (upper > state_->table_upper) state_->table_upper = upper;
}

void CollectionFrontiers::advance_index(compute::GlobalId id, Timestamp upper) {
  std::lock_guard lock(state_->mutex);
  auto it = state_->indexes.find(id);
  if (it == state_->indexes.end()) return;
  Frontier& f = it->second.frontier;
  if (upper < f.upper) {
    spdlog::error("internal error: the upper of collection {} would regress from {} to {}; ignored", id, f.upper,
                  upper);
    return;
  }
  f.upper = upper;
}

std::vector<catalog::CollectionFrontierStatus> CollectionFrontiers::all() const {
  std::lock_guard lock(state_->mutex);
  std::vector<catalog::CollectionFrontierStatus> out;
  for (const auto& [id, since] : state_->tables) {
    out.push_back({id, std::max(since, state_->table_since), state_->table_upper});
  }
  for (const auto& [id, index] : state_->indexes) out.push_back({id, index.frontier.since, index.frontier.upper});
  return out;
}

std::optional<Frontier> CollectionFrontiers::get(compute::GlobalId id) const {
  std::lock_guard lock(state_->mutex);
  if (auto t = state_->tables.find(id); t != state_->tables.end()) {
    return Frontier{std::max(t->second, state_->table_since), state_->table_upper, true};
  }
  if (auto i = state_->indexes.find(id); i != state_->indexes.end()) return i->second.frontier;
  return std::nullopt;
}

}  // namespace tandem::frontend
