#include "storage/key_delete.hpp"

#include "storage/durable_store.hpp"
#include "storage/shard_scan.hpp"

namespace tandem::storage {

Status collect_shard_keys(const DurableStore& durable, std::string_view begin, std::string_view end,
                          const rocksdb::Snapshot* snapshot, std::vector<std::string>* keys) {
  ShardRangeIterator it(durable, std::string(begin), std::string(end), snapshot);
  for (; it.valid(); it.next()) keys->emplace_back(it.key());
  return it.status();
}

}  // namespace tandem::storage
