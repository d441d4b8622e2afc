#pragma once
// The file system tandem's RocksDB runs on: RocksDB's own (POSIX), except
// that the write-ahead log's space is written with zeros ahead of the
// records, as PostgreSQL does with its WAL segments.
//
// Why: a commit is a WAL append plus fdatasync. RocksDB preallocates WAL
// space with fallocate(FALLOC_FL_KEEP_SIZE): every append still grows the
// file's size, and the blocks it reaches are "unwritten" extents, so each
// commit's fdatasync must also commit the file system journal (the new
// size, the converted extent). The journal is shared by every file on the
// disk, so under other I/O that wait grows to milliseconds. Over space
// already written with zeros, inside the file's size, fdatasync writes the
// data and flushes the device, and nothing else (bench/HISTORY.md has the
// figures: append vs fallocate vs zero-filled).
//
// How: a WAL file (<number>.log) is wrapped so that RocksDB's PrepareWrite
// zero-fills the file in 4 MiB chunks (through a second descriptor, past
// the records) before an append reaches them, instead of fallocating.
// Close cuts the file back to its records.
//
// Recovery: after a crash the WAL ends in zeros. RocksDB's log reader skips
// zero-filled space as padding (the format it has always accepted from
// preallocating writers); a torn last record fails its checksum and
// point-in-time recovery stops before it, as before. If zero-filling fails
// (disk full), appends simply grow the file as they would without it.
//
// Every WAL file is also listed in the directory's TANDEM_WALS before it is
// created and until it is deleted (wal_registry.hpp), so a WAL deleted
// behind RocksDB's back is detected at open.
//
// Threading: as RocksDB's FileSystem and WritableFile (a WAL file is
// written by one thread at a time).

#include <cstdint>
#include <memory>

namespace rocksdb {
class Env;
}  // namespace rocksdb

namespace tandem::storage {

// An Env over RocksDB's default one whose WAL files are zero-filled ahead
// of their records. With `direct_wal` (a store whose commits are synced)
// WAL files are written with O_DIRECT where the file system allows it (see
// DirectWal in the .cpp); a store that does not sync keeps buffered writes,
// which reach the OS at each write without waiting for the device. It must
// outlive every DB opened on it.
std::unique_ptr<rocksdb::Env> new_wal_preallocating_env(bool direct_wal);

// How many fdatasync calls direct WALs have made, in this process: one per
// Sync after bulk writes or zero-filling, none for a commit's (its records
// went out with RWF_DSYNC).
uint64_t direct_wal_fdatasyncs();

}  // namespace tandem::storage
