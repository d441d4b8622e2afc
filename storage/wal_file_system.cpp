#include "storage/wal_file_system.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

#include "storage/wal_registry.hpp"

namespace tandem::storage {
namespace {

constexpr uint64_t kZeroFillChunk = uint64_t{4} << 20;

std::atomic<uint64_t> direct_fdatasyncs{0};

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

// Direct I/O moves whole aligned blocks: 4 KiB serves devices with 512-byte
// and 4 KiB logical blocks alike.
constexpr uint64_t kBlock = 4096;

uint64_t block_floor(uint64_t n) { return n / kBlock * kBlock; }
uint64_t block_ceil(uint64_t n) { return (n + kBlock - 1) / kBlock * kBlock; }

rocksdb::IOStatus io_error(const std::string& what, const std::string& name, int err) {
  return rocksdb::IOStatus::IOError(what + " " + name + ": " + std::strerror(err));
}

// Writes [data, data + size) at `offset` whole (a write may return short),
// with pwritev2 `flags` (RWF_DSYNC: durable on return).
bool write_fully(int fd, const char* data, uint64_t size, uint64_t offset, int flags = 0) {
  while (size > 0) {
    struct iovec iov = {const_cast<char*>(data), size};
    ssize_t n = ::pwritev2(fd, &iov, 1, static_cast<off_t>(offset), flags);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<uint64_t>(n);
    offset += static_cast<uint64_t>(n);
  }
  return true;
}

// Whether `fd` takes direct I/O at kBlock alignment of memory and offsets.
bool direct_io_aligned(int fd) {
  struct statx st;
  if (::statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &st) != 0 || (st.stx_mask & STATX_DIOALIGN) == 0) return false;
  return st.stx_dio_mem_align != 0 && st.stx_dio_offset_align != 0 && kBlock % st.stx_dio_mem_align == 0 &&
         kBlock % st.stx_dio_offset_align == 0;
}

// A WAL file of a store whose commits are synced, written with O_DIRECT.
// RocksDB's appends gather in memory from the file's last partial block on;
// Flush writes the blocks they touch straight to the device (the last one
// again at the next Flush, with what follows it) with RWF_DSYNC: durable
// when the write returns, in one system call, and the Sync that follows a
// commit's Flush has nothing left to do. A buffered commit's fdatasync
// walks the page cache writeback path for its one dirty page, which on
// this kind of machine costs more CPU than the direct write, and a separate
// fdatasync costs a system call more (bench/HISTORY.md, the one-client
// INSERT entries of 2026-12-04). Bulk writes (a COPY's staged chunks) still go through the
// page cache (see Flush); a Sync after one, or after space was zero-filled,
// is an fdatasync.
//
// Every commit-sized Flush is durable, synced or not: only a synced store
// uses this file (new_wal_preallocating_env), where every logged write is
// a synced one but a COPY's staged chunks, which are bulk.
//
// Space ahead of a commit's records is zero-filled, directly, to the next
// kZeroFillChunk boundary; the next Sync makes the new size durable once,
// and the commits after it only overwrite. Bytes past the records in a
// written block are zeros: the file reads as the buffered WAL would, and a
// crash leaves the same zero tail (see the header). Close cuts the file
// back to its records.
class DirectWal : public rocksdb::FSWritableFile {
 public:
  // `fd` is open with O_DIRECT, `buffered_fd` on the same file without.
  DirectWal(int fd, int buffered_fd, std::string name) : fd_(fd), buffered_fd_(buffered_fd), name_(std::move(name)) {}
  ~DirectWal() override {
    if (fd_ >= 0) (void)Close(rocksdb::IOOptions(), nullptr);
    std::free(buffer_);
  }

  rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                           rocksdb::IODebugContext* dbg) override {
    if (fd_ < 0) return rocksdb::IOStatus::IOError("append to closed WAL " + name_);
    if (!reserve(end_ - tail_start_ + data.size())) return rocksdb::IOStatus::NoSpace("WAL buffer for " + name_);
    std::memcpy(buffer_ + (end_ - tail_start_), data.data(), data.size());
    end_ += data.size();
    // RocksDB flushes after each record group; a long run of appends
    // without one (a large batch) is written out as it grows.
    if (end_ - tail_start_ >= kMaxBuffered) return Flush(options, dbg);
    return rocksdb::IOStatus::OK();
  }
  rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                           const rocksdb::DataVerificationInfo&, rocksdb::IODebugContext* dbg) override {
    return Append(data, options, dbg);
  }

  rocksdb::IOStatus Flush(const rocksdb::IOOptions&, rocksdb::IODebugContext*) override {
    if (end_ == written_) return rocksdb::IOStatus::OK();
    const uint64_t length = block_ceil(end_ - tail_start_);
    // Much at once (a COPY's staged chunks, which are not synced by
    // themselves) goes through the page cache, past the zero-filled space
    // if need be: a direct write would wait for the device, the buffered
    // one overlaps it with what comes next, and the next Sync's fdatasync
    // writes it back. A commit-sized write goes straight to the device,
    // over zeros once it follows another (between bulk writes, zeros ahead
    // would only be written over). Whole blocks either way (no partial page
    // for the kernel to read first).
    const bool bulk = end_ - written_ >= kBufferedFrom;
    if (!bulk && !after_bulk_) {
      if (rocksdb::IOStatus s = zero_fill_to(tail_start_ + length); !s.ok()) return s;
    }
    if (!write_fully(bulk ? buffered_fd_ : fd_, buffer_, length, tail_start_, bulk ? 0 : RWF_DSYNC)) {
      return io_error("could not write WAL", name_, errno);
    }
    after_bulk_ = bulk;
    if (bulk) unsynced_ = true;
    zeroed_ = std::max(zeroed_, tail_start_ + length);
    written_ = end_;
    // Keep the last partial block (zeros past the records) for the next
    // write; whole blocks are done with.
    const uint64_t keep_from = block_floor(end_);
    if (keep_from > tail_start_) {
      const uint64_t kept = end_ - keep_from;
      std::memmove(buffer_, buffer_ + (keep_from - tail_start_), kept);
      // Every byte past the records reads as zero again (never a stale
      // record: a block goes out whole).
      std::memset(buffer_ + kept, 0, length - kept);
      tail_start_ = keep_from;
    }
    return rocksdb::IOStatus::OK();
  }

  rocksdb::IOStatus Sync(const rocksdb::IOOptions& options, rocksdb::IODebugContext* dbg) override {
    if (rocksdb::IOStatus s = Flush(options, dbg); !s.ok()) return s;
    if (!unsynced_) return rocksdb::IOStatus::OK();  // the records went out with RWF_DSYNC
    direct_fdatasyncs.fetch_add(1, std::memory_order_relaxed);
    if (::fdatasync(fd_) != 0) return io_error("could not sync WAL", name_, errno);
    unsynced_ = false;
    return rocksdb::IOStatus::OK();
  }
  rocksdb::IOStatus Fsync(const rocksdb::IOOptions& options, rocksdb::IODebugContext* dbg) override {
    if (rocksdb::IOStatus s = Flush(options, dbg); !s.ok()) return s;
    if (::fsync(fd_) != 0) return io_error("could not sync WAL", name_, errno);
    unsynced_ = false;
    return rocksdb::IOStatus::OK();
  }

  rocksdb::IOStatus Close(const rocksdb::IOOptions& options, rocksdb::IODebugContext* dbg) override {
    if (fd_ < 0) return rocksdb::IOStatus::OK();
    rocksdb::IOStatus s = Flush(options, dbg);
    // A cleanly closed WAL has its exact length.
    if (s.ok() && ::ftruncate(fd_, static_cast<off_t>(end_)) != 0) s = io_error("could not trim WAL", name_, errno);
    if (::close(fd_) != 0 && s.ok()) s = io_error("could not close WAL", name_, errno);
    if (::close(buffered_fd_) != 0 && s.ok()) s = io_error("could not close WAL", name_, errno);
    fd_ = -1;
    return s;
  }

  rocksdb::IOStatus Truncate(uint64_t size, const rocksdb::IOOptions& options, rocksdb::IODebugContext* dbg) override {
    // RocksDB trims a WAL only to its own length (the records written).
    if (size != end_) return rocksdb::IOStatus::NotSupported("truncating a direct WAL inside its records");
    return Flush(options, dbg);
  }

  uint64_t GetFileSize(const rocksdb::IOOptions&, rocksdb::IODebugContext*) override { return end_; }
  // Space is zero-filled by Flush, not fallocated.
  void PrepareWrite(size_t, size_t, const rocksdb::IOOptions&, rocksdb::IODebugContext*) override {}
  rocksdb::IOStatus Allocate(uint64_t, uint64_t, const rocksdb::IOOptions&, rocksdb::IODebugContext*) override {
    return rocksdb::IOStatus::OK();
  }

 private:
  static constexpr uint64_t kMaxBuffered = uint64_t{1} << 20;
  static constexpr uint64_t kBufferedFrom = uint64_t{64} << 10;

  // Room for `bytes` from tail_start_, the space past them zeroed up to a
  // block boundary (a write goes out in whole blocks).
  bool reserve(uint64_t bytes) {
    const uint64_t needed = block_ceil(bytes) + kBlock;
    if (needed <= capacity_) return true;
    uint64_t capacity = std::max<uint64_t>(capacity_ * 2, std::max<uint64_t>(needed, 16 * kBlock));
    void* grown = nullptr;
    if (::posix_memalign(&grown, kBlock, capacity) != 0) return false;
    std::memset(grown, 0, capacity);
    if (buffer_ != nullptr) std::memcpy(grown, buffer_, end_ - tail_start_);
    std::free(buffer_);
    buffer_ = static_cast<char*>(grown);
    capacity_ = capacity;
    return true;
  }

  // Zero-fills the file ahead to at least `end`, to the next chunk
  // boundary. The new size and allocation reach the disk with the write
  // after it (RWF_DSYNC) and the next Sync, once; the commits after it only
  // overwrite.
  rocksdb::IOStatus zero_fill_to(uint64_t end) {
    if (end <= zeroed_) return rocksdb::IOStatus::OK();
    static char* const zeros = [] {
      void* p = nullptr;
      if (::posix_memalign(&p, kBlock, kZeroWrite) != 0) std::abort();
      std::memset(p, 0, kZeroWrite);
      return static_cast<char*>(p);
    }();
    const uint64_t to = (end + kZeroFillChunk - 1) / kZeroFillChunk * kZeroFillChunk;
    for (uint64_t from = zeroed_; from < to; from += kZeroWrite) {
      if (!write_fully(fd_, zeros, std::min(kZeroWrite, to - from), from)) {
        return io_error("could not zero-fill WAL", name_, errno);
      }
    }
    zeroed_ = to;
    unsynced_ = true;
    return rocksdb::IOStatus::OK();
  }

  static constexpr uint64_t kZeroWrite = uint64_t{1} << 20;

  int fd_;
  int buffered_fd_;
  std::string name_;
  char* buffer_ = nullptr;  // the file's bytes [tail_start_, end_), zeros after
  uint64_t capacity_ = 0;
  uint64_t tail_start_ = 0;  // block-aligned
  uint64_t end_ = 0;         // the records' length (what RocksDB appended)
  uint64_t written_ = 0;     // how much of them is in the file
  uint64_t zeroed_ = 0;      // the file is written (records or zeros) up to here, block-aligned
  bool after_bulk_ = false;  // the last Flush wrote through the page cache
  bool unsynced_ = false;    // written since the last sync without RWF_DSYNC (bulk records, zeros)
};

class ZeroFilledWalFileSystem : public rocksdb::FileSystemWrapper {
 public:
  ZeroFilledWalFileSystem(std::shared_ptr<rocksdb::FileSystem> target, bool direct)
      : rocksdb::FileSystemWrapper(std::move(target)), direct_(direct) {}
  const char* Name() const override { return "ZeroFilledWalFileSystem"; }

  rocksdb::IOStatus NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    if (is_wal(name)) {
      // Listed before it exists: a crash in between lists a WAL that never
      // held a write, and open reports it missing (never the reverse).
      Status listed = record_wal_created(name);
      if (!listed.is_ok()) return rocksdb::IOStatus::IOError(listed.message());
    }
    if (direct_ && is_wal(name) && !options.use_direct_writes && !options.use_mmap_writes) {
      int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_CLOEXEC, 0644);
      int buffered_fd = fd >= 0 ? ::open(name.c_str(), O_WRONLY | O_CLOEXEC) : -1;
      if (fd >= 0 && buffered_fd >= 0 && direct_io_aligned(fd)) {
        *result = std::make_unique<DirectWal>(fd, buffered_fd, name);
        return rocksdb::IOStatus::OK();
      }
      // No direct I/O here (tmpfs, say): the buffered WAL below.
      if (fd >= 0) ::close(fd);
      if (buffered_fd >= 0) ::close(buffered_fd);
    }
    rocksdb::IOStatus s = target()->NewWritableFile(name, options, result, dbg);
    if (!s.ok() || !is_wal(name) || options.use_direct_writes) return s;
    int fd = ::open(name.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd >= 0) *result = std::make_unique<ZeroFilledWal>(std::move(*result), fd);
    return s;
  }

  rocksdb::IOStatus DeleteFile(const std::string& name, const rocksdb::IOOptions& options,
                               rocksdb::IODebugContext* dbg) override {
    if (is_wal(name)) {
      Status unlisted = record_wal_deleted(name);
      if (!unlisted.is_ok()) return rocksdb::IOStatus::IOError(unlisted.message());
    }
    return target()->DeleteFile(name, options, dbg);
  }

 private:
  // RocksDB names its WAL files <number>.log (the info log is LOG).
  static bool is_wal(std::string_view name) { return name.size() > 4 && name.substr(name.size() - 4) == ".log"; }

  bool direct_;
};

}  // namespace

uint64_t direct_wal_fdatasyncs() { return direct_fdatasyncs.load(std::memory_order_relaxed); }

std::unique_ptr<rocksdb::Env> new_wal_preallocating_env(bool direct_wal) {
  return rocksdb::NewCompositeEnv(
      std::make_shared<ZeroFilledWalFileSystem>(rocksdb::FileSystem::Default(), direct_wal));
}

}  // namespace tandem::storage
