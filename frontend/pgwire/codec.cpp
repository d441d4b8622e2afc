#include "frontend/pgwire/codec.hpp"

#include <string>

#include "frontend/pgwire/body_reader.hpp"
#include "frontend/pgwire/byte_order.hpp"

namespace tandem::pgwire {
namespace {

Status protocol_error(std::string message) {
  return Status::error(sqlstate::kProtocolViolation, std::move(message));
}

std::string describe_type_byte(uint8_t type) {
  std::string s = std::to_string(type);
  if (type >= 0x20 && type < 0x7f) {
    s += " ('";
    s += static_cast<char>(type);
    s += "')";
  }
  return s;
}

// ---- startup phase ----

StartupDecodeResult decode_startup_body(int32_t code, std::span<const uint8_t> body, size_t frame) {
  switch (code) {
    case kSslRequestCode:
    case kGssEncRequestCode: {
      if (!body.empty()) {
        return StartupDecodeResult::error(protocol_error(
            std::string("invalid length of ") + (code == kSslRequestCode ? "SSLRequest" : "GSSENCRequest") +
            " packet: " + std::to_string(frame)));
      }
      if (code == kSslRequestCode) return StartupDecodeResult::decoded(SslRequest{}, frame);
      return StartupDecodeResult::decoded(GssEncRequest{}, frame);
    }
    case kCancelRequestCode: {
      if (body.size() != 8) {
        return StartupDecodeResult::error(
            protocol_error("invalid length of CancelRequest packet: " + std::to_string(frame)));
      }
      CancelRequest c;
      c.process_id = load_be32_signed(body.data());
      c.secret_key = load_be32_signed(body.data() + 4);
      return StartupDecodeResult::decoded(c, frame);
    }
    default:
      break;
  }
  StartupMessage m;
  m.protocol_version = code;
  if (m.protocol_major() != 3) {
    return StartupDecodeResult::error(protocol_error(
        "unsupported frontend protocol " + std::to_string(m.protocol_major()) + "." +
        std::to_string(m.protocol_minor()) + ": server supports 3.0 to 3.0"));
  }
  // Pairs of NUL-terminated key and value, ended by an empty key, which must
  // be the last byte of the packet.
  BodyReader r(body, "StartupMessage");
  for (;;) {
    std::string_view key;
    if (r.remaining() == 0) {
      r.fail("expected a terminating empty parameter name as last byte");
      return StartupDecodeResult::error(r.status());
    }
    if (!r.read_cstring(&key, "parameter name")) return StartupDecodeResult::error(r.status());
    if (key.empty()) break;
    std::string_view value;
    if (!r.read_cstring(&value, "parameter value")) return StartupDecodeResult::error(r.status());
    m.parameters.emplace_back(key, value);
  }
  if (!r.expect_end()) return StartupDecodeResult::error(r.status());
  return StartupDecodeResult::decoded(std::move(m), frame);
}

// ---- normal phase ----

Result<FrontendMessage> decode_parse(BodyReader& r) {
  Parse m;
  uint16_t n = 0;
  if (!r.read_cstring(&m.statement, "statement name") || !r.read_cstring(&m.query, "query string") ||
      !r.read_uint16(&n, "parameter type count")) {
    return r.status();
  }
  if (r.remaining() < size_t{n} * 4) {
    r.fail(std::to_string(n) + " parameter types overrun the message (" + std::to_string(r.remaining()) +
           " bytes left)");
    return r.status();
  }
  m.param_types.resize(n);
  for (uint16_t i = 0; i < n; ++i) {
    int32_t oid = 0;
    r.read_int32(&oid, "parameter type");
    m.param_types[i] = static_cast<Oid>(oid);
  }
  if (!r.expect_end()) return r.status();
  return FrontendMessage(std::move(m));
}

bool read_format_codes(BodyReader& r, std::vector<int16_t>* out, const char* what) {
  uint16_t n = 0;
  if (!r.read_uint16(&n, what)) return false;
  if (r.remaining() < size_t{n} * 2) {
    return r.fail(std::to_string(n) + " " + what + " overrun the message (" + std::to_string(r.remaining()) +
                  " bytes left)");
  }
  out->resize(n);
  for (uint16_t i = 0; i < n; ++i) r.read_int16(&(*out)[i], what);
  return true;
}

Result<FrontendMessage> decode_bind(BodyReader& r) {
  Bind m;
  if (!r.read_cstring(&m.portal, "portal name") || !r.read_cstring(&m.statement, "statement name") ||
      !read_format_codes(r, &m.param_formats, "parameter format codes")) {
    return r.status();
  }
  uint16_t n = 0;
  if (!r.read_uint16(&n, "parameter count")) return r.status();
  if (m.param_formats.size() > 1 && m.param_formats.size() != n) {
    r.fail("it has " + std::to_string(m.param_formats.size()) + " parameter formats but " + std::to_string(n) +
           " parameters");
    return r.status();
  }
  // Every value needs at least its 4-byte length: reject a count that cannot
  // fit before allocating for it.
  if (r.remaining() < size_t{n} * 4) {
    r.fail(std::to_string(n) + " parameters overrun the message (" + std::to_string(r.remaining()) +
           " bytes left)");
    return r.status();
  }
  m.params.resize(n);
  for (uint16_t i = 0; i < n; ++i) {
    int32_t len = 0;
    if (!r.read_int32(&len, "parameter length")) return r.status();
    if (len == -1) continue;  // NULL
    if (len < 0) {
      r.fail("parameter " + std::to_string(i + 1) + " has invalid length " + std::to_string(len));
      return r.status();
    }
    std::string_view v;
    if (!r.read_bytes(static_cast<size_t>(len), &v, "parameter value")) return r.status();
    m.params[i] = v;
  }
  if (!read_format_codes(r, &m.result_formats, "result format codes") || !r.expect_end()) return r.status();
  return FrontendMessage(std::move(m));
}

template <class M>
Result<FrontendMessage> decode_kind_and_name(BodyReader& r) {
  M m;
  uint8_t kind = 0;
  if (!r.read_byte(&kind, "target kind")) return r.status();
  if (kind != 'S' && kind != 'P') {
    r.fail("invalid target kind " + describe_type_byte(kind) + ", expected 'S' or 'P'");
    return r.status();
  }
  m.kind = static_cast<char>(kind);
  if (!r.read_cstring(&m.name, "name") || !r.expect_end()) return r.status();
  return FrontendMessage(m);
}

template <class M>
Result<FrontendMessage> decode_empty(BodyReader& r) {
  if (!r.expect_end()) return r.status();
  return FrontendMessage(M{});
}

Result<FrontendMessage> decode_body(uint8_t type, std::span<const uint8_t> body) {
  BodyReader r(body, frontend_message_name(type));
  switch (type) {
    case 'p':
      return FrontendMessage(PasswordMessage{
          std::string_view(reinterpret_cast<const char*>(body.data()), body.size())});
    case 'Q': {
      Query m;
      if (!r.read_cstring(&m.sql, "query string") || !r.expect_end()) return r.status();
      return FrontendMessage(m);
    }
    case 'P':
      return decode_parse(r);
    case 'B':
      return decode_bind(r);
    case 'D':
      return decode_kind_and_name<Describe>(r);
    case 'E': {
      Execute m;
      if (!r.read_cstring(&m.portal, "portal name") || !r.read_int32(&m.max_rows, "row limit") ||
          !r.expect_end()) {
        return r.status();
      }
      return FrontendMessage(m);
    }
    case 'C':
      return decode_kind_and_name<Close>(r);
    case 'S':
      return decode_empty<Sync>(r);
    case 'H':
      return decode_empty<Flush>(r);
    case 'X':
      return decode_empty<Terminate>(r);
    case 'd':
      return FrontendMessage(CopyData{std::string_view(reinterpret_cast<const char*>(body.data()), body.size())});
    case 'c':
      return decode_empty<CopyDone>(r);
    case 'f': {
      CopyFail m;
      if (!r.read_cstring(&m.message, "error message") || !r.expect_end()) return r.status();
      return FrontendMessage(m);
    }
    default:
      return protocol_error("invalid frontend message type " + describe_type_byte(type));
  }
}

}  // namespace

StartupDecodeResult MessageDecoder::try_decode_startup(std::span<const uint8_t> buffer) const {
  if (buffer.size() < kStartupHeaderSize) return StartupDecodeResult::need_more(kStartupHeaderSize);
  const int32_t len = load_be32_signed(buffer.data());
  // PostgreSQL's bounds: room for the code, and a sane maximum.
  if (len < 8 || static_cast<size_t>(len) > kMaxStartupPacketSize) {
    return StartupDecodeResult::error(protocol_error("invalid length of startup packet: " + std::to_string(len)));
  }
  const size_t frame = static_cast<size_t>(len);
  if (buffer.size() < frame) return StartupDecodeResult::need_more(frame);
  const int32_t code = load_be32_signed(buffer.data() + 4);
  return decode_startup_body(code, buffer.subspan(8, frame - 8), frame);
}

FrontendDecodeResult MessageDecoder::try_decode(std::span<const uint8_t> buffer) const {
  if (buffer.empty()) return FrontendDecodeResult::need_more(kMessageHeaderSize);
  const uint8_t type = buffer[0];
  // Reject garbage on its first byte rather than waiting for a length.
  if (frontend_message_name(type) == nullptr) {
    return FrontendDecodeResult::error(protocol_error("invalid frontend message type " + describe_type_byte(type)));
  }
  if (buffer.size() < kMessageHeaderSize) return FrontendDecodeResult::need_more(kMessageHeaderSize);
  const int32_t len = load_be32_signed(buffer.data() + 1);
  if (len < 4) {
    return FrontendDecodeResult::error(protocol_error(std::string("invalid message length ") + std::to_string(len) +
                                                      " in " + frontend_message_name(type) + " message"));
  }
  const size_t body_size = static_cast<size_t>(len) - 4;
  if (body_size > max_message_size_) {
    return FrontendDecodeResult::error(
        protocol_error(std::string(frontend_message_name(type)) + " message of " + std::to_string(body_size) +
                       " bytes exceeds the maximum message size of " + std::to_string(max_message_size_) +
                       " bytes"));
  }
  const size_t frame = kMessageHeaderSize + body_size;
  if (buffer.size() < frame) return FrontendDecodeResult::need_more(frame);
  Result<FrontendMessage> m = decode_body(type, buffer.subspan(kMessageHeaderSize, body_size));
  if (!m.ok()) return FrontendDecodeResult::malformed(std::move(m).take_status(), frame);
  return FrontendDecodeResult::decoded(std::move(m).value(), frame);
}

}  // namespace tandem::pgwire
