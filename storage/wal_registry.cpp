#include "storage/wal_registry.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>

namespace tandem::storage {
namespace {

constexpr const char* kListName = "TANDEM_WALS";

std::mutex& list_mutex() {
  static std::mutex m;
  return m;
}

std::vector<std::string> read_list(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::ifstream in(dir / kListName);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) names.push_back(line);
  }
  return names;
}

Status os_error(const std::string& what) {
  return Status::error(sqlstate::kIoError, what + ": " + std::strerror(errno));
}

Status sync_path(const std::filesystem::path& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return os_error("opening " + path.string());
  int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return os_error("syncing " + path.string());
  return Status::ok();
}

// Replaces the list by `names`: written to a temporary file, synced, renamed
// over the list, and the directory synced.
Status write_list(const std::filesystem::path& dir, const std::vector<std::string>& names) {
  const std::filesystem::path tmp = dir / (std::string(kListName) + ".tmp");
  {
    std::ofstream out(tmp, std::ios::trunc);
    for (const std::string& n : names) out << n << '\n';
    out.flush();
    if (!out) return Status::error(sqlstate::kIoError, "writing " + tmp.string());
  }
  TANDEM_RETURN_IF_ERROR(sync_path(tmp, O_RDONLY));
  if (::rename(tmp.c_str(), (dir / kListName).c_str()) != 0) return os_error("renaming " + tmp.string());
  return sync_path(dir, O_RDONLY | O_DIRECTORY);
}

}  // namespace

Status record_wal_created(const std::string& wal_path) {
  std::filesystem::path p(wal_path);
  std::lock_guard lock(list_mutex());
  std::vector<std::string> names = read_list(p.parent_path());
  if (std::find(names.begin(), names.end(), p.filename().string()) != names.end()) return Status::ok();
  names.push_back(p.filename().string());
  return write_list(p.parent_path(), names);
}

Status record_wal_deleted(const std::string& wal_path) {
  std::filesystem::path p(wal_path);
  std::lock_guard lock(list_mutex());
  std::vector<std::string> names = read_list(p.parent_path());
  auto it = std::find(names.begin(), names.end(), p.filename().string());
  if (it == names.end()) return Status::ok();
  names.erase(it);
  return write_list(p.parent_path(), names);
}

std::vector<std::string> missing_wals(const std::string& dir) {
  std::lock_guard lock(list_mutex());
  std::vector<std::string> missing;
  for (const std::string& n : read_list(dir)) {
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::path(dir) / n, ec)) missing.push_back(n);
  }
  return missing;
}

Status clear_wal_list(const std::string& dir) {
  std::lock_guard lock(list_mutex());
  if (!std::filesystem::exists(std::filesystem::path(dir) / kListName)) return Status::ok();
  return write_list(dir, {});
}

}  // namespace tandem::storage
