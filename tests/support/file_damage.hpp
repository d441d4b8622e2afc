#pragma once
// Damaging files of a scratch data directory the way a disk might, for the
// corruption tests (storage/corruption_test.cpp,
// tests/integration/corruption_test.cpp). Header-only; throws
// std::runtime_error when a file cannot be found or written.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace tandem::testing {

// The largest file of `dir` whose name ends in `suffix`, or, when `suffix`
// ends in '-', begins with it (e.g. "MANIFEST-").
inline std::string largest_file(const std::string& dir, const std::string& suffix) {
  std::string best;
  std::uintmax_t best_size = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    const bool match = !suffix.empty() && suffix.back() == '-'
                           ? name.rfind(suffix, 0) == 0
                           : name.size() > suffix.size() &&
                                 name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (match && (best.empty() || e.file_size() > best_size)) {
      best_size = e.file_size();
      best = e.path().string();
    }
  }
  if (best.empty()) throw std::runtime_error("no file matching " + suffix + " in " + dir);
  return best;
}

// Replaces `n` bytes at `offset` of `path` by their complement.
inline void flip_bytes(const std::string& path, std::uint64_t offset, std::size_t n) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  std::string bytes(n, '\0');
  f.seekg(static_cast<std::streamoff>(offset));
  f.read(bytes.data(), static_cast<std::streamsize>(n));
  for (char& c : bytes) c = static_cast<char>(~c);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(bytes.data(), static_cast<std::streamsize>(n));
  if (!f) throw std::runtime_error("could not damage " + path);
}

}  // namespace tandem::testing
