#pragma once
// BodyReader: bounds-checked sequential reads over one message body, used by
// the decoder and the 'p' payload helpers. Every read either succeeds and
// advances, or fails, records what was wrong and leaves the reader failed;
// status() then builds the 08P01 error "invalid <Message> message: <problem>".
// Reads never touch bytes outside the body. Internal to frontend/pgwire.

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "common/status.hpp"
#include "frontend/pgwire/byte_order.hpp"

namespace tandem::pgwire {

class BodyReader {
 public:
  BodyReader(std::span<const uint8_t> body, const char* message_name)
      : p_(body.data()), end_(body.data() + body.size()), message_name_(message_name) {}

  size_t remaining() const { return static_cast<size_t>(end_ - p_); }

  bool read_byte(uint8_t* out, const char* what) {
    if (remaining() < 1) return truncated(what);
    *out = *p_++;
    return true;
  }
  bool read_int16(int16_t* out, const char* what) {
    if (remaining() < 2) return truncated(what);
    *out = load_be16_signed(p_);
    p_ += 2;
    return true;
  }
  bool read_uint16(uint16_t* out, const char* what) {
    if (remaining() < 2) return truncated(what);
    *out = load_be16(p_);
    p_ += 2;
    return true;
  }
  bool read_int32(int32_t* out, const char* what) {
    if (remaining() < 4) return truncated(what);
    *out = load_be32_signed(p_);
    p_ += 4;
    return true;
  }
  // A NUL-terminated string; the view excludes the terminator.
  bool read_cstring(std::string_view* out, const char* what) {
    const void* nul = std::memchr(p_, 0, remaining());
    if (nul == nullptr) return fail(std::string("missing NUL terminator in ") + what);
    const auto* q = static_cast<const uint8_t*>(nul);
    *out = std::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(q - p_));
    p_ = q + 1;
    return true;
  }
  bool read_bytes(size_t n, std::string_view* out, const char* what) {
    if (remaining() < n) {
      return fail(std::string(what) + " of " + std::to_string(n) + " bytes overruns the message (" +
                  std::to_string(remaining()) + " bytes left)");
    }
    *out = std::string_view(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return true;
  }
  // Succeeds iff the whole body was consumed.
  bool expect_end() {
    if (p_ == end_) return true;
    return fail(std::to_string(remaining()) + " bytes of trailing garbage");
  }

  bool fail(std::string problem) {
    problem_ = std::move(problem);
    return false;
  }
  Status status() const {
    return Status::error(sqlstate::kProtocolViolation,
                         std::string("invalid ") + message_name_ + " message: " + problem_);
  }

 private:
  bool truncated(const char* what) { return fail(std::string("truncated before ") + what); }

  const uint8_t* p_;
  const uint8_t* end_;
  const char* message_name_;
  std::string problem_;
};

}  // namespace tandem::pgwire
