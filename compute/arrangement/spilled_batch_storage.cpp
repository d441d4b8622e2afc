#include "compute/arrangement/spilled_batch_storage.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace tandem::compute {

namespace {

void append_u64(std::string& out, std::uint64_t v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof(v));
}

// Appends entries [from, to] of `offsets`, each minus offsets[from].
void append_rebased(std::string& out, const Offsets& offsets, std::uint64_t from, std::uint64_t to) {
  const std::uint64_t base = offsets[from];
  for (std::uint64_t i = from; i <= to; ++i) append_u64(out, offsets[i] - base);
}

// Encodes keys [k0, k1) of `c` as one block (layout in the header).
std::string encode_block(const BatchColumns& c, std::uint64_t k0, std::uint64_t k1) {
  const std::uint64_t v0 = c.key_vals[k0], v1 = c.key_vals[k1];
  const std::uint64_t u0 = c.val_updates[v0], u1 = c.val_updates[v1];
  const std::uint64_t kb0 = c.key_offsets[k0], kb1 = c.key_offsets[k1];
  const std::uint64_t vb0 = c.val_offsets[v0], vb1 = c.val_offsets[v1];
  std::string out;
  out.reserve(8 * (3 + 2 * (k1 - k0 + 1) + 2 * (v1 - v0 + 1) + 2 * (u1 - u0)) + (kb1 - kb0) +
              (vb1 - vb0));
  append_u64(out, k1 - k0);
  append_u64(out, v1 - v0);
  append_u64(out, u1 - u0);
  append_rebased(out, c.key_offsets, k0, k1);
  append_rebased(out, c.key_vals, k0, k1);
  append_rebased(out, c.val_offsets, v0, v1);
  append_rebased(out, c.val_updates, v0, v1);
  out.append(reinterpret_cast<const char*>(c.times + u0), 8 * (u1 - u0));
  out.append(reinterpret_cast<const char*>(c.diffs + u0), 8 * (u1 - u0));
  out.append(c.key_bytes + kb0, kb1 - kb0);
  out.append(c.val_bytes + vb0, vb1 - vb0);
  return out;
}

// Bytes key k adds to a block: its bytes, its vals' bytes, and 16 per
// offset entry and per update.
std::uint64_t key_cost(const BatchColumns& c, std::uint64_t k) {
  const std::uint64_t v0 = c.key_vals[k], v1 = c.key_vals[k + 1];
  return (c.key_offsets[k + 1] - c.key_offsets[k]) + 16 + (c.val_offsets[v1] - c.val_offsets[v0]) +
         16 * (v1 - v0) + 16 * (c.val_updates[v1] - c.val_updates[v0]);
}

[[noreturn]] void lost_spill(std::uint64_t id, std::size_t block, const Status& status) {
  std::fprintf(stderr, "tandemd: spilled block %llu/%zu unreadable: %s\n",
               static_cast<unsigned long long>(id), block, status.message().c_str());
  std::abort();
}

}  // namespace

std::shared_ptr<const DecodedBlock> SpilledBatchStorage::decode_block(std::string bytes) {
  auto block = std::make_shared<DecodedBlock>();
  block->bytes = std::move(bytes);
  const char* p = block->bytes.data();
  auto u64s = [&p](std::uint64_t n) {
    const auto* at = reinterpret_cast<const std::uint64_t*>(p);
    p += 8 * n;
    return at;
  };
  const std::uint64_t* header = u64s(3);
  BatchColumns& c = block->columns;
  c.key_count = header[0];
  c.val_count = header[1];
  c.update_count = header[2];
  c.key_offsets = Offsets{u64s(c.key_count + 1), 0};
  c.key_vals = Offsets{u64s(c.key_count + 1), 0};
  c.val_offsets = Offsets{u64s(c.val_count + 1), 0};
  c.val_updates = Offsets{u64s(c.val_count + 1), 0};
  c.times = reinterpret_cast<const Timestamp*>(u64s(c.update_count));
  c.diffs = reinterpret_cast<const Diff*>(u64s(c.update_count));
  c.key_bytes = p;
  c.val_bytes = p + c.key_offsets[c.key_count];
  return block;
}

SpilledBatchStorage::SpilledBatchStorage(std::shared_ptr<MemoryBudget> budget)
    : budget_(std::move(budget)),
      id_(budget_->next_spill_id()),
      store_(*budget_->store()),
      cache_(*budget_->cache()) {}

SpilledBatchStorage::Writer::Writer(std::shared_ptr<MemoryBudget> budget)
    : spilled_(new SpilledBatchStorage(std::move(budget))) {}

bool SpilledBatchStorage::Writer::append(const BatchColumns& c) {
  SpilledBatchStorage& s = *spilled_;
  const std::size_t fences_before = s.fences_.size();
  const std::size_t blocks_before = s.fence_offsets_.size();
  std::uint64_t start = 0, cost = 0;
  for (std::uint64_t k = 0; k < c.key_count; ++k) {
    cost += key_cost(c, k);
    if (cost < kBlockBytes && k + 1 < c.key_count) continue;
    const std::string bytes = encode_block(c, start, k + 1);
    const auto next = static_cast<std::uint32_t>(s.block_count());
    if (!s.store_.put_block(s.id_, next, bytes).is_ok()) {
      // Forget this append's blocks: the storage holds the earlier appends
      // only. The destructor erases every block written under the id.
      s.fences_.resize(fences_before);
      s.fence_offsets_.resize(blocks_before);
      return false;
    }
    s.spilled_bytes_ += bytes.size();
    s.budget_->on_spill_written(bytes.size());
    s.fences_.append(c.key(k));
    s.fence_offsets_.push_back(s.fences_.size());
    start = k + 1;
    cost = 0;
  }
  return true;
}

std::shared_ptr<const SpilledBatchStorage> SpilledBatchStorage::write(
    const BlockSource& source, std::shared_ptr<MemoryBudget> budget) {
  Writer writer(std::move(budget));
  for (std::size_t b = 0; b < source.block_count(); ++b) {
    if (!writer.append(source.pin_block(b).columns)) return nullptr;
  }
  return writer.finish();
}

SpilledBatchStorage::~SpilledBatchStorage() {
  cache_.erase(id_, static_cast<std::uint32_t>(block_count()));
  (void)store_.erase(id_);  // an orphaned block is discarded at the next boot
  budget_->on_spill_deleted(spilled_bytes_);
}

PinnedColumns SpilledBatchStorage::pin_block(std::size_t block) const {
  const auto index = static_cast<std::uint32_t>(block);
  std::shared_ptr<const DecodedBlock> decoded = cache_.lookup(id_, index);
  if (decoded == nullptr) {
    std::string bytes;
    const Status status = store_.get_block(id_, index, bytes);
    if (!status.is_ok()) lost_spill(id_, block, status);
    decoded = decode_block(std::move(bytes));
    cache_.insert(id_, index, decoded);
  }
  const BatchColumns columns = decoded->columns;
  return PinnedColumns{columns, std::move(decoded)};
}

std::uint64_t SpilledBatchStorage::resident_bytes() const {
  return sizeof(*this) + fences_.capacity() + 8 * fence_offsets_.capacity();
}

}  // namespace tandem::compute
