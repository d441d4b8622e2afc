#pragma once
// The decoding half of the PostgreSQL wire protocol v3 codec (STYLE #10):
// bytes -> frontend message structs, nothing else. No sockets, no session
// state; the protocol state machine owns the buffer and decides which phase
// to decode (startup until a StartupMessage was accepted, normal afterwards).
//
// Framing:
//   startup phase: int32 length (incl. itself) + int32 code + body
//   normal phase:  byte type + int32 length (incl. itself, excl. type) + body
//
// Each call looks at the FRONT of the buffer and returns exactly one of
//   * need more:  the buffer holds a prefix of a valid frame; bytes_needed()
//                 is the total buffer size required to make progress (the
//                 header size before the header is complete, the whole frame
//                 after). Nothing is consumed.
//   * a message + consumed(): the frame's size; the caller drops that many
//                 bytes after it is done with the message (views point into
//                 the buffer, see messages.hpp).
//   * an error:   SQLSTATE 08P01 (protocol violation) with a message naming
//                 the problem. The stream cannot be resynchronised: the
//                 caller reports the error (FATAL) and closes the connection.
//
// Robustness contract: any byte sequence yields one of the three outcomes
// without reading outside the span (the codec is fuzzed: codec_fuzz.cpp).
// The size limit is enforced from the header alone, before any body byte is
// buffered, so a client cannot make the server allocate a huge frame.
//
// Threading: a MessageDecoder is immutable during decoding; concurrent calls
// on one instance are safe, set_max_message_size() is not.

#include <cstddef>
#include <cstdint>
#include <span>

#include "common/status.hpp"
#include "frontend/pgwire/messages.hpp"

namespace tandem::pgwire {

inline constexpr size_t kDefaultMaxMessageSize = size_t{64} << 20;  // 64 MiB of body
// PostgreSQL's MAX_STARTUP_PACKET_LENGTH.
inline constexpr size_t kMaxStartupPacketSize = 10000;
inline constexpr size_t kStartupHeaderSize = 4;  // int32 length
inline constexpr size_t kMessageHeaderSize = 5;  // type byte + int32 length

template <class Message>
class DecodeResult {
 public:
  enum class Kind : uint8_t { kNeedMore, kMessage, kError };

  static DecodeResult need_more(size_t bytes_needed) {
    DecodeResult r;
    r.kind_ = Kind::kNeedMore;
    r.size_ = bytes_needed;
    return r;
  }
  static DecodeResult decoded(Message m, size_t consumed) {
    DecodeResult r;
    r.kind_ = Kind::kMessage;
    r.size_ = consumed;
    r.message_ = std::move(m);
    return r;
  }
  static DecodeResult error(Status s) {
    DecodeResult r;
    r.kind_ = Kind::kError;
    r.status_ = std::move(s);
    return r;
  }
  // A well-framed message whose body is malformed: the stream stays in
  // step, so the receiver may report the error and skip `frame` bytes.
  static DecodeResult malformed(Status s, size_t frame) {
    DecodeResult r = error(std::move(s));
    r.size_ = frame;
    r.skippable_ = true;
    return r;
  }

  Kind kind() const { return kind_; }
  bool needs_more() const { return kind_ == Kind::kNeedMore; }
  bool has_message() const { return kind_ == Kind::kMessage; }
  bool is_error() const { return kind_ == Kind::kError; }

  // REQUIRES: needs_more(). Total buffer size needed (> current size).
  size_t bytes_needed() const { return size_; }
  // REQUIRES: has_message().
  size_t consumed() const { return size_; }
  Message& message() { return message_; }
  const Message& message() const { return message_; }
  // REQUIRES: is_error().
  const Status& status() const { return status_; }
  // REQUIRES: is_error(). True for a malformed body in a sound frame; then
  // consumed() is the frame's size.
  bool skippable() const { return skippable_; }

 private:
  DecodeResult() = default;
  Kind kind_ = Kind::kNeedMore;
  bool skippable_ = false;
  size_t size_ = 0;
  Message message_{};
  Status status_;
};

using StartupDecodeResult = DecodeResult<StartupPhaseMessage>;
using FrontendDecodeResult = DecodeResult<FrontendMessage>;

class MessageDecoder {
 public:
  // `max_message_size` bounds the body of a normal-phase message (length
  // word minus 4). Startup packets are bounded by kMaxStartupPacketSize.
  explicit MessageDecoder(size_t max_message_size = kDefaultMaxMessageSize)
      : max_message_size_(max_message_size) {}

  size_t max_message_size() const { return max_message_size_; }
  void set_max_message_size(size_t limit) { max_message_size_ = limit; }

  // Startup phase. A StartupMessage whose major version is not 3 is an error
  // ("unsupported frontend protocol 2.0: server supports 3.0 to 3.0"); minor
  // versions > 0 are accepted and left to the caller (NegotiateProtocolVersion).
  StartupDecodeResult try_decode_startup(std::span<const uint8_t> buffer) const;

  // Normal phase.
  FrontendDecodeResult try_decode(std::span<const uint8_t> buffer) const;

 private:
  size_t max_message_size_;
};

}  // namespace tandem::pgwire
