#pragma once
// Big-endian (network order) integer helpers for the PostgreSQL wire codec.
// Readers take a pointer to at least sizeof(T) readable bytes; writers append
// to a std::string or overwrite bytes already in it (length back-patching).
// Pure functions, no state: safe from any thread.

#include <cstdint>
#include <cstring>
#include <string>

namespace tandem::pgwire {

inline uint16_t load_be16(const uint8_t* p) {
  return static_cast<uint16_t>((uint16_t{p[0]} << 8) | uint16_t{p[1]});
}

inline uint32_t load_be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

inline int16_t load_be16_signed(const uint8_t* p) { return static_cast<int16_t>(load_be16(p)); }
inline int32_t load_be32_signed(const uint8_t* p) { return static_cast<int32_t>(load_be32(p)); }

inline void append_be16(std::string& out, uint16_t v) {
  const char b[2] = {static_cast<char>(v >> 8), static_cast<char>(v)};
  out.append(b, 2);
}

inline void append_be32(std::string& out, uint32_t v) {
  const char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                     static_cast<char>(v >> 8), static_cast<char>(v)};
  out.append(b, 4);
}

// REQUIRES: offset + 4 <= out.size().
inline void store_be32(std::string& out, size_t offset, uint32_t v) {
  out[offset] = static_cast<char>(v >> 24);
  out[offset + 1] = static_cast<char>(v >> 16);
  out[offset + 2] = static_cast<char>(v >> 8);
  out[offset + 3] = static_cast<char>(v);
}

}  // namespace tandem::pgwire
