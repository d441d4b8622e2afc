#pragma once
// The file system tandem's RocksDB runs on: RocksDB's own (POSIX), except
// that the write-ahead log is preallocated with its size set.
//
// Why: a commit is a WAL append plus fdatasync. RocksDB preallocates WAL
// space with fallocate(FALLOC_FL_KEEP_SIZE), so every append still grows the
// file's size, and ext4 must journal the new size in the same fdatasync
// (about 100-110 us per commit here). Preallocating without KEEP_SIZE sets
// the size once per preallocation block (RocksDB's: ~1.1 x write_buffer_size)
// so a commit's fdatasync writes the data and, once per newly written 4 KiB
// block, an extent conversion (about 70 us here; PostgreSQL gets the same by
// overwriting zero-filled WAL segments). bench/README.md has the figures.
//
// Recovery is unchanged: the space past the last record reads as zeros, and
// RocksDB's log reader skips zero-filled space as padding (the format it has
// always accepted from preallocating writers); a torn last record fails its
// checksum and point-in-time recovery stops before it, as before. A cleanly
// closed WAL is truncated to its written length by RocksDB's Close.
//
// Threading: as RocksDB's FileSystem (thread-safe).

#include <memory>

namespace rocksdb {
class Env;
}  // namespace rocksdb

namespace tandem::storage {

// An Env over RocksDB's default one whose WAL files are preallocated with
// their size set. It must outlive every DB opened on it.
std::unique_ptr<rocksdb::Env> new_wal_preallocating_env();

}  // namespace tandem::storage
