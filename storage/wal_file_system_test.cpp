// The preallocated WAL (storage/wal_file_system.hpp): its size is set ahead
// of the records, and a data directory left by a crash, with the zero-filled
// tail and possibly a torn last record, recovers every complete write. The
// direct WAL (a synced store's, where the file system takes O_DIRECT) holds
// exactly the records, then zeros, after every flush.
#include "storage/wal_file_system.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

#include "storage/test_support.hpp"

namespace tandem::storage {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;
using testing::numbered;
using testing::open_durable;

std::vector<fs::path> wal_files(const std::string& dir) {
  std::vector<fs::path> logs;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".log") logs.push_back(entry.path());
  }
  return logs;
}

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The bytes of the WAL up to its last non-zero byte: what was written.
uint64_t written_length(const fs::path& log) {
  const std::string bytes = file_bytes(log);
  size_t end = bytes.find_last_not_of('\0');
  return end == std::string::npos ? 0 : end + 1;
}

// A copy of a live data directory: what a crash of the process leaves
// (synced writes are in the files, the WAL was never closed).
void copy_as_crashed(const std::string& from, const std::string& to) {
  fs::copy(from, to, fs::copy_options::recursive);
  fs::remove(fs::path(to) / "LOCK");
}

void write_keys(DurableStore& store, int from, int to);

// Writes keys [0, n) to a store in `live`, leaves a crash image of it in
// `crashed` (then closes the live store) and returns the image's one WAL.
fs::path crash_after_writes(const ScratchDir& live, const ScratchDir& crashed, int n) {
  auto store = open_durable(live.path());
  write_keys(*store, 0, n);
  copy_as_crashed(live.path(), crashed.path());
  REQUIRE(store->close().is_ok());
  auto logs = wal_files(crashed.path());
  REQUIRE(logs.size() == 1);
  return logs[0];
}

void write_keys(DurableStore& store, int from, int to) {
  for (int i = from; i < to; ++i) {
    REQUIRE(store.put(Family::kShards, numbered("k", i), std::string(200, 'a' + i % 26)).is_ok());
  }
}

void check_keys(DurableStore& store, int from, int to) {
  for (int i = from; i < to; ++i) {
    auto v = store.get(Family::kShards, numbered("k", i));
    REQUIRE(v.ok());
    REQUIRE(v->has_value());
    CHECK(**v == std::string(200, 'a' + i % 26));
  }
}

// Writes `count` values of `bytes` bytes (over 6 MiB of records, past the
// first 4 MiB zero-filled chunk) and 50 small keys, leaves a crash image,
// and checks the image's WAL ends in zeros and recovers every write.
void check_recovery_past_first_chunk(bool sync, size_t bytes, int count) {
  ScratchDir dir;
  ScratchDir crashed;
  auto store = open_durable(dir.path(), sync);
  const std::string big(bytes, 'q');
  for (int i = 0; i < count; ++i) REQUIRE(store->put(Family::kShards, numbered("big", i), big).is_ok());
  write_keys(*store, 0, 50);
  copy_as_crashed(dir.path(), crashed.path());
  REQUIRE(store->close().is_ok());
  auto logs = wal_files(crashed.path());
  REQUIRE(logs.size() == 1);
  CHECK(written_length(logs[0]) > (uint64_t{6} << 20));
  CHECK(fs::file_size(logs[0]) > written_length(logs[0]));

  auto recovered = open_durable(crashed.path());
  for (int i = 0; i < count; ++i) {
    auto v = recovered->get(Family::kShards, numbered("big", i));
    REQUIRE(v.ok());
    REQUIRE(v->has_value());
    CHECK(**v == big);
  }
  check_keys(*recovered, 0, 50);
}

}  // namespace

TEST_CASE("the WAL is preallocated with its size set, so a commit does not grow the file") {
  ScratchDir dir;
  auto store = open_durable(dir.path());
  write_keys(*store, 0, 10);
  auto logs = wal_files(dir.path());
  REQUIRE(logs.size() == 1);
  uint64_t written = written_length(logs[0]);
  CHECK(written > 2000);
  // RocksDB preallocates ~1.1 x the write buffer (64 MiB) per block.
  CHECK(fs::file_size(logs[0]) >= (uint64_t{1} << 20));
  uint64_t size = fs::file_size(logs[0]);
  write_keys(*store, 10, 20);
  CHECK(fs::file_size(logs[0]) == size);
  CHECK(written_length(logs[0]) > written);
}

TEST_CASE("a crashed data directory with a preallocated WAL recovers every synced write") {
  ScratchDir dir;
  ScratchDir crashed;
  fs::path log = crash_after_writes(dir, crashed, 500);
  CHECK(fs::file_size(log) > written_length(log));  // the zero tail is there
  {
    auto recovered = open_durable(crashed.path());
    check_keys(*recovered, 0, 500);
    write_keys(*recovered, 500, 600);  // and it takes new writes
    REQUIRE(recovered->close().is_ok());
  }
  auto reopened = open_durable(crashed.path());
  check_keys(*reopened, 0, 600);
}

TEST_CASE("a torn last record before the preallocated tail stops the open; recovery loses only that record") {
  ScratchDir dir;
  ScratchDir crashed;
  fs::path log = crash_after_writes(dir, crashed, 100);
  // Tear the last record: zero its final bytes, as if the crash came while
  // its write was reaching the disk (it was never acknowledged).
  uint64_t end = written_length(log);
  {
    std::fstream f(log, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(static_cast<std::streamoff>(end - 50));
    std::string zeros(50, '\0');
    f.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  }
  // The damage stops the open, naming the file; the operator's explicit
  // recovery drops the torn record and nothing before it.
  auto refused = DurableStore::open({crashed.path(), true});
  REQUIRE(!refused.ok());
  CHECK(refused.status().sqlstate() == "XX001");
  CHECK(refused.status().message().find(log.filename().string()) != std::string::npos);
  auto opened = DurableStore::open({crashed.path(), true, /*recover_torn_wal=*/true});
  REQUIRE(opened.ok());
  auto recovered = std::move(*opened);
  CHECK(recovered->recovery_report().size() == 1);
  check_keys(*recovered, 0, 99);
  auto last = recovered->get(Family::kShards, numbered("k", 99));
  REQUIRE(last.ok());
  CHECK(!last->has_value());
  write_keys(*recovered, 99, 120);
  check_keys(*recovered, 0, 120);
}

TEST_CASE("a WAL that outgrows its first zero-filled chunk recovers every write") {
  // Not synced: the crash image is a copy of the files, which hold every
  // write once it returns.
  check_recovery_past_first_chunk(/*sync=*/false, 4096, 1536);
}

namespace {

// The open flags of the descriptor `fd` of this process.
int open_flags(int fd) {
  std::ifstream in("/proc/self/fdinfo/" + std::to_string(fd));
  std::string key;
  while (in >> key) {
    if (key == "flags:") {
      std::string octal;
      in >> octal;
      return std::stoi(octal, nullptr, 8);
    }
  }
  return -1;
}

// Whether some descriptor of this process is open on `path` with O_DIRECT.
bool open_direct(const fs::path& path) {
  for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    fs::path target = fs::read_symlink(entry.path(), ec);
    if (!ec && target == path) {
      int flags = open_flags(std::stoi(entry.path().filename().string()));
      if (flags >= 0 && (flags & O_DIRECT) != 0) return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("the direct WAL holds exactly the records, then zeros, after every flush and sync") {
  ScratchDir dir;
  fs::create_directories(dir.path());
  const fs::path name = fs::path(dir.path()) / "000007.log";
  auto env = new_wal_preallocating_env(/*direct_wal=*/true);
  std::unique_ptr<rocksdb::FSWritableFile> file;
  REQUIRE(env->GetFileSystem()->NewWritableFile(name.string(), rocksdb::FileOptions(), &file, nullptr).ok());
  // /tmp here is ext4; on a file system without O_DIRECT the WAL stays
  // buffered and this case checks that path instead.
  const bool direct = open_direct(name);
  INFO("direct: " << direct);

  std::mt19937 rng(11);
  std::string expected;
  rocksdb::IOOptions io;
  for (int i = 0; i < 300; ++i) {
    // Mostly commit-sized records, some that cross blocks, a few larger
    // than the 1 MiB the file gathers before it writes on its own, and
    // enough in all to pass the first 4 MiB zero-filled chunk.
    size_t size = i % 97 == 13 ? (size_t{5} << 19) : i % 7 == 3 ? 9000 + rng() % 5000 : 1 + rng() % 300;
    std::string record(size, '\0');
    for (char& c : record) c = static_cast<char>(1 + rng() % 255);
    REQUIRE(file->Append(record, io, nullptr).ok());
    expected += record;
    CHECK(file->GetFileSize(io, nullptr) == expected.size());
    if (i % 5 == 4) continue;  // appended, not flushed: checked after the next flush
    REQUIRE((i % 2 == 0 ? file->Sync(io, nullptr) : file->Flush(io, nullptr)).ok());
    std::string on_disk = file_bytes(name);
    REQUIRE(on_disk.size() >= expected.size());
    REQUIRE(on_disk.compare(0, expected.size(), expected) == 0);
    REQUIRE(on_disk.find_first_not_of('\0', expected.size()) == std::string::npos);
    if (direct) CHECK(on_disk.size() % 4096 == 0);  // written in whole blocks
  }
  CHECK(expected.size() > (uint64_t{4} << 20));
  REQUIRE(file->Close(io, nullptr).ok());
  CHECK(file_bytes(name) == expected);  // closed: cut back to the records
}

TEST_CASE("a synced store's WAL is written with O_DIRECT, a relaxed one's is buffered") {
  for (bool sync : {true, false}) {
    ScratchDir dir;
    auto store = open_durable(dir.path(), sync);
    write_keys(*store, 0, 5);
    auto logs = wal_files(dir.path());
    REQUIRE(logs.size() == 1);
    CHECK(open_direct(logs[0]) == sync);
    REQUIRE(store->close().is_ok());
  }
}

TEST_CASE("a synced store's commit is one durable write: no fdatasync but after bulk writes") {
  ScratchDir dir;
  auto store = open_durable(dir.path(), /*sync=*/true);
  auto logs = wal_files(dir.path());
  REQUIRE(logs.size() == 1);
  if (!open_direct(logs[0])) return;  // a file system without O_DIRECT: the buffered WAL syncs each commit
  const uint64_t before = direct_wal_fdatasyncs();
  write_keys(*store, 0, 300);
  // At most one for the zero-filled space ahead (once per 4 MiB).
  CHECK(direct_wal_fdatasyncs() - before <= 1);
  const uint64_t before_bulk = direct_wal_fdatasyncs();
  REQUIRE(store->put(Family::kShards, "bulk", std::string(200000, 'b')).is_ok());
  CHECK(direct_wal_fdatasyncs() > before_bulk);  // written through the page cache, then synced
  REQUIRE(store->close().is_ok());

  auto reopened = open_durable(dir.path());
  check_keys(*reopened, 0, 300);
  auto bulk = reopened->get(Family::kShards, "bulk");
  REQUIRE(bulk.ok());
  REQUIRE(bulk->has_value());
  CHECK(**bulk == std::string(200000, 'b'));
}

TEST_CASE("a crashed data directory with a direct WAL past its first chunk recovers every synced write") {
  check_recovery_past_first_chunk(/*sync=*/true, 70000, 100);
}

}  // namespace tandem::storage
