#include "storage/wal_file_system.hpp"

#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

namespace tandem::storage {
namespace {

class WalPreallocatingFileSystem : public rocksdb::FileSystemWrapper {
 public:
  using rocksdb::FileSystemWrapper::FileSystemWrapper;
  const char* Name() const override { return "WalPreallocatingFileSystem"; }

  // RocksDB asks for the options of every WAL it creates here (and only for
  // WALs), so the MANIFEST, SSTs and OPTIONS files keep the defaults.
  rocksdb::FileOptions OptimizeForLogWrite(const rocksdb::FileOptions& file_options,
                                           const rocksdb::DBOptions& db_options) const override {
    rocksdb::FileOptions options = target()->OptimizeForLogWrite(file_options, db_options);
    options.fallocate_with_keep_size = false;
    return options;
  }
};

}  // namespace

std::unique_ptr<rocksdb::Env> new_wal_preallocating_env() {
  return rocksdb::NewCompositeEnv(
      std::make_shared<WalPreallocatingFileSystem>(rocksdb::FileSystem::Default()));
}

}  // namespace tandem::storage
