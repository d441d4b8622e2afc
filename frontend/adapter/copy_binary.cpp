#include "frontend/adapter/copy_binary.hpp"

#include "common/sqlstate.hpp"

namespace tandem::frontend {
namespace {

constexpr std::string_view kSignature{"PGCOPY\n\377\r\n\0", 11};
constexpr uint32_t kOidsFlag = 1u << 16;

void put32(std::string* out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((v >> shift) & 0xff));
}

uint32_t get32(std::string_view s, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(s[at + i]);
  return v;
}

uint16_t get16(std::string_view s, size_t at) {
  return static_cast<uint16_t>((static_cast<uint8_t>(s[at]) << 8) | static_cast<uint8_t>(s[at + 1]));
}

Status bad(const std::string& what) { return Status::error("22P04", what); }

}  // namespace

void append_binary_copy_header(std::string* out) {
  out->append(kSignature);
  put32(out, 0);  // flags
  put32(out, 0);  // header extension length
}

void append_binary_copy_trailer(std::string* out) {
  out->push_back('\xff');
  out->push_back('\xff');
}

Status BinaryCopyReader::feed(std::string_view piece) {
  pending_.append(piece);
  return drain();
}

Status BinaryCopyReader::drain() {
  std::string_view data(pending_);
  size_t at = 0;
  if (!header_done_) {
    if (data.size() < kSignature.size() + 8) return Status::ok();
    if (data.substr(0, kSignature.size()) != kSignature) return bad("COPY file signature not recognized");
    uint32_t flags = get32(data, kSignature.size());
    if (flags & kOidsFlag) return Status::error(sqlstate::kFeatureNotSupported, "COPY with OIDs is not supported");
    if ((flags >> 16) != 0) return bad("unrecognized critical flags in COPY file header");
    uint32_t extension = get32(data, kSignature.size() + 4);
    size_t header = kSignature.size() + 8 + extension;
    if (data.size() < header) return Status::ok();
    at = header;
    header_done_ = true;
  }
  while (!ended_ && data.size() - at >= 2) {
    auto count = static_cast<int16_t>(get16(data, at));
    if (count == -1) {
      ended_ = true;
      at += 2;
      break;
    }
    if (count < 0) return bad("row field count is " + std::to_string(count) + ", expected at least 0");
    // Find the tuple's end before handing it on.
    size_t p = at + 2;
    fields_.clear();
    bool whole = true;
    for (int16_t f = 0; f < count; ++f) {
      if (data.size() - p < 4) { whole = false; break; }
      auto len = static_cast<int32_t>(get32(data, p));
      p += 4;
      if (len == -1) {
        fields_.emplace_back(std::nullopt);
        continue;
      }
      if (len < 0) return bad("invalid field size");
      if (data.size() - p < static_cast<size_t>(len)) { whole = false; break; }
      fields_.emplace_back(data.substr(p, static_cast<size_t>(len)));
      p += static_cast<size_t>(len);
    }
    if (!whole) break;
    TANDEM_RETURN_IF_ERROR(fn_(++tuples_, fields_));
    at = p;
  }
  if (ended_ && at < data.size()) return bad("received copy data after EOF marker");
  pending_.erase(0, at);
  return Status::ok();
}

Status BinaryCopyReader::finish() {
  if (!header_done_) return bad("COPY file signature not recognized");
  if (!pending_.empty()) return bad("unexpected EOF in COPY data");
  return Status::ok();
}

}  // namespace tandem::frontend
