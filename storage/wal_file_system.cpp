#include "storage/wal_file_system.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <string>
#include <string_view>

#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

namespace tandem::storage {
namespace {

constexpr uint64_t kZeroFillChunk = uint64_t{4} << 20;

// A WAL file whose space ahead of the records is written with zeros, a
// chunk at a time, before RocksDB's appends reach it (RocksDB's own
// fallocate is never called: the wrapped file's PrepareWrite is not
// forwarded). The zeros go through a second descriptor at offsets past
// the records; RocksDB's descriptor writes at its own offset.
class ZeroFilledWal : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  ZeroFilledWal(std::unique_ptr<rocksdb::FSWritableFile> file, int fd)
      : rocksdb::FSWritableFileOwnerWrapper(std::move(file)), fd_(fd) {}
  ~ZeroFilledWal() override { trim(); }

  void PrepareWrite(size_t offset, size_t len, const rocksdb::IOOptions&, rocksdb::IODebugContext*) override {
    static const std::string zeros(1 << 20, '\0');
    while (fd_ >= 0 && offset + len > zeroed_) {
      for (uint64_t done = 0; done < kZeroFillChunk; done += zeros.size()) {
        if (::pwrite(fd_, zeros.data(), zeros.size(), static_cast<off_t>(zeroed_ + done)) !=
            static_cast<ssize_t>(zeros.size())) {
          // Not fatal: RocksDB's writes then simply grow the file.
          trim();
          return;
        }
      }
      zeroed_ += kZeroFillChunk;
    }
  }

  rocksdb::IOStatus Close(const rocksdb::IOOptions& options, rocksdb::IODebugContext* dbg) override {
    trim();
    return rocksdb::FSWritableFileOwnerWrapper::Close(options, dbg);
  }

 private:
  // Cuts the zeros past the records (a cleanly closed WAL has its exact
  // length) and lets go of the second descriptor.
  void trim() {
    if (fd_ < 0) return;
    rocksdb::IOOptions options;
    (void)!::ftruncate(fd_, static_cast<off_t>(GetFileSize(options, nullptr)));
    ::close(fd_);
    fd_ = -1;
  }

  int fd_;
  uint64_t zeroed_ = 0;
};

class ZeroFilledWalFileSystem : public rocksdb::FileSystemWrapper {
 public:
  using rocksdb::FileSystemWrapper::FileSystemWrapper;
  const char* Name() const override { return "ZeroFilledWalFileSystem"; }

  rocksdb::IOStatus NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->NewWritableFile(name, options, result, dbg);
    if (!s.ok() || !is_wal(name) || options.use_direct_writes) return s;
    int fd = ::open(name.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd >= 0) *result = std::make_unique<ZeroFilledWal>(std::move(*result), fd);
    return s;
  }

 private:
  // RocksDB names its WAL files <number>.log (the info log is LOG).
  static bool is_wal(std::string_view name) { return name.size() > 4 && name.substr(name.size() - 4) == ".log"; }
};

}  // namespace

std::unique_ptr<rocksdb::Env> new_wal_preallocating_env() {
  return rocksdb::NewCompositeEnv(std::make_shared<ZeroFilledWalFileSystem>(rocksdb::FileSystem::Default()));
}

}  // namespace tandem::storage
