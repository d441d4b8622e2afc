#pragma once
// The WAL files a data directory must hold, recorded outside RocksDB.
//
// RocksDB tracks in its MANIFEST only WAL files that were closed after a
// sync (track_and_verify_wals_in_manifest, 7.8); the live WAL, which holds
// every acknowledged write since the last memtable flush, is found by
// listing the directory. Deleted, it goes unnoticed: the database opens with
// those writes gone. So the file system tandem's RocksDB runs on
// (wal_file_system.hpp) records each WAL file in `<dir>/TANDEM_WALS` (one
// name a line, replaced atomically and synced) before RocksDB creates it,
// and takes it out before RocksDB deletes it; a clean close empties the
// list (every family is flushed: no WAL holds anything then). At open, a
// listed WAL that is missing is acknowledged writes lost. A directory
// without the list (new, or written before it) has nothing to check.
// Threading: any thread; calls are serialized by a process-wide mutex.

#include <string>
#include <vector>

#include "common/status.hpp"

namespace tandem::storage {

// Adds or removes the WAL file at `wal_path` (dir/<number>.log) in its
// directory's list. Errors: 58030.
Status record_wal_created(const std::string& wal_path);
Status record_wal_deleted(const std::string& wal_path);
// The listed WAL files of `dir` that do not exist.
std::vector<std::string> missing_wals(const std::string& dir);
// Empties the list (a clean close, or after a recovery that accepted the
// loss). Errors: 58030.
Status clear_wal_list(const std::string& dir);

}  // namespace tandem::storage
