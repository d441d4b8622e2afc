#pragma once
// RowArena: owns the var-length results of expression evaluation (text built
// by ||, upper(), casts to text, ...) so a Datum can borrow them. Memory comes
// from chunks that are never moved, so returned views stay valid until
// clear() or destruction. Reusing one arena across rows (clear() per batch)
// makes evaluation allocation-free in steady state.
// Threading: single owner; not thread-safe.

#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace tandem {

class RowArena {
 public:
  RowArena() = default;
  RowArena(const RowArena&) = delete;
  RowArena& operator=(const RowArena&) = delete;

  // Uninitialised storage of n bytes with a stable address.
  char* allocate(size_t n) {
    if (n > kChunkSize / 4) {
      large_.push_back(std::make_unique<char[]>(n ? n : 1));
      return large_.back().get();
    }
    if (chunks_.empty() || used_ + n > kChunkSize) {
      if (next_chunk_ < chunks_.size()) {
        ++next_chunk_;
      } else {
        chunks_.push_back(std::make_unique<char[]>(kChunkSize));
        next_chunk_ = chunks_.size();
      }
      used_ = 0;
    }
    char* p = chunks_[next_chunk_ - 1].get() + used_;
    used_ += n;
    return p;
  }
  std::string_view push(std::string_view s) {
    char* p = allocate(s.size());
    if (!s.empty()) std::memcpy(p, s.data(), s.size());
    return std::string_view(p, s.size());
  }
  // Invalidates every view handed out; keeps the chunks for reuse.
  void clear() {
    large_.clear();
    next_chunk_ = chunks_.empty() ? 0 : 1;
    used_ = 0;
    if (chunks_.empty()) next_chunk_ = 0;
  }

 private:
  static constexpr size_t kChunkSize = 16 * 1024;
  std::vector<std::unique_ptr<char[]>> chunks_;
  std::vector<std::unique_ptr<char[]>> large_;
  size_t next_chunk_ = 0;  // 1-based index of the chunk being filled
  size_t used_ = 0;
};

}  // namespace tandem
