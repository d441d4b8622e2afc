#pragma once
// Frontend (client -> server) messages of the PostgreSQL wire protocol v3, as
// produced by the decoder in frontend/pgwire/codec.hpp.
//
// Lifetime contract: every std::string_view (and every view inside a vector)
// points INTO the input buffer passed to the decoder. A decoded message is
// valid only while that buffer is alive and its consumed bytes are unchanged;
// copy what must outlive the next buffer compaction. Vectors own only the
// small fixed-size arrays (oids, format codes, value views).
//
// The messages are plain values with no behaviour beyond the parse helpers of
// PasswordMessage; they carry no session state. Thread-compatible.

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "common/status.hpp"

namespace tandem::pgwire {

using Oid = uint32_t;

// Protocol codes of the startup phase (the int32 after the length word).
inline constexpr int32_t kProtocolVersion3 = 196608;  // 3.0 = (3 << 16) | 0
inline constexpr int32_t kCancelRequestCode = 80877102;
inline constexpr int32_t kSslRequestCode = 80877103;
inline constexpr int32_t kGssEncRequestCode = 80877104;

// ---- startup phase (no type byte) ----

// Parameters in the order the client sent them; keys are unique in practice
// but not checked (PostgreSQL lets the last one win, see parameter()).
struct StartupMessage {
  int32_t protocol_version = kProtocolVersion3;
  std::vector<std::pair<std::string_view, std::string_view>> parameters;

  int protocol_major() const { return static_cast<int>(static_cast<uint32_t>(protocol_version) >> 16); }
  int protocol_minor() const { return static_cast<int>(protocol_version & 0xffff); }
  // The last value given for `key`, if any.
  std::optional<std::string_view> parameter(std::string_view key) const;
};

struct SslRequest {};
struct GssEncRequest {};

struct CancelRequest {
  int32_t process_id = 0;
  int32_t secret_key = 0;
};

using StartupPhaseMessage = std::variant<StartupMessage, SslRequest, GssEncRequest, CancelRequest>;

// ---- normal phase (type byte + length) ----

// SASLInitialResponse as carried by a 'p' message.
struct SaslInitialResponse {
  std::string_view mechanism;
  std::optional<std::string_view> data;  // nullopt when the client sent length -1
};

// 'p': PasswordMessage, SASLInitialResponse or SASLResponse. Which one it is
// depends on the authentication request the server sent last, which the pure
// decoder does not know; the session picks the matching parse helper.
struct PasswordMessage {
  std::string_view payload;  // the whole message body

  // Cleartext password: a NUL-terminated string filling the whole body.
  // Errors: 08P01 on a missing terminator or trailing bytes.
  Result<std::string_view> as_password() const;
  // Mechanism name (NUL-terminated), int32 data length (-1 = none), data.
  // Errors: 08P01 on any inconsistency.
  Result<SaslInitialResponse> as_sasl_initial_response() const;
  // SASLResponse: the body is the raw SASL data, nothing to check.
  std::string_view as_sasl_response() const { return payload; }
};

struct Query {
  std::string_view sql;
};

struct Parse {
  std::string_view statement;  // "" = the unnamed statement
  std::string_view query;
  std::vector<Oid> param_types;  // 0 = unspecified
};

struct Bind {
  std::string_view portal;     // "" = the unnamed portal
  std::string_view statement;  // "" = the unnamed statement
  // 0 codes: all text; 1 code: applies to every parameter; else one per
  // parameter (the decoder checks this count rule, not the code values).
  std::vector<int16_t> param_formats;
  std::vector<std::optional<std::string_view>> params;  // nullopt = SQL NULL
  std::vector<int16_t> result_formats;  // same 0 / 1 / per-column rule, checked later
};

// Describe and Close target a prepared statement ('S') or a portal ('P'); the
// decoder rejects any other kind byte.
struct Describe {
  char kind = 'S';
  std::string_view name;
};

struct Execute {
  std::string_view portal;
  int32_t max_rows = 0;  // <= 0 means no limit
};

struct Close {
  char kind = 'S';
  std::string_view name;
};

struct Sync {};
struct Flush {};
struct Terminate {};

struct CopyData {
  std::string_view data;
};
struct CopyDone {};
struct CopyFail {
  std::string_view message;
};

using FrontendMessage = std::variant<PasswordMessage, Query, Parse, Bind, Describe, Execute, Close,
                                     Sync, Flush, Terminate, CopyData, CopyDone, CopyFail>;

// Human-readable name of a frontend message type byte ("Bind" for 'B'), or
// nullptr for a byte that is not a frontend message type.
const char* frontend_message_name(uint8_t type);

}  // namespace tandem::pgwire
