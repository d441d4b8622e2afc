#include "frontend/pgwire/messages.hpp"

#include "frontend/pgwire/body_reader.hpp"

namespace tandem::pgwire {
namespace {

std::span<const uint8_t> as_bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

}  // namespace

std::optional<std::string_view> StartupMessage::parameter(std::string_view key) const {
  std::optional<std::string_view> found;
  for (const auto& [k, v] : parameters) {
    if (k == key) found = v;
  }
  return found;
}

Result<std::string_view> PasswordMessage::as_password() const {
  BodyReader r(as_bytes(payload), "PasswordMessage");
  std::string_view password;
  if (!r.read_cstring(&password, "password") || !r.expect_end()) return r.status();
  return password;
}

Result<SaslInitialResponse> PasswordMessage::as_sasl_initial_response() const {
  BodyReader r(as_bytes(payload), "SASLInitialResponse");
  SaslInitialResponse m;
  int32_t len = 0;
  if (!r.read_cstring(&m.mechanism, "mechanism name") || !r.read_int32(&len, "data length")) return r.status();
  if (len < -1) {
    r.fail("invalid data length " + std::to_string(len));
    return r.status();
  }
  if (len >= 0) {
    std::string_view data;
    if (!r.read_bytes(static_cast<size_t>(len), &data, "SASL data")) return r.status();
    m.data = data;
  }
  if (!r.expect_end()) return r.status();
  return m;
}

const char* frontend_message_name(uint8_t type) {
  switch (type) {
    case 'p': return "PasswordMessage";
    case 'Q': return "Query";
    case 'P': return "Parse";
    case 'B': return "Bind";
    case 'D': return "Describe";
    case 'E': return "Execute";
    case 'C': return "Close";
    case 'S': return "Sync";
    case 'H': return "Flush";
    case 'X': return "Terminate";
    case 'd': return "CopyData";
    case 'c': return "CopyDone";
    case 'f': return "CopyFail";
    default: return nullptr;
  }
}

}  // namespace tandem::pgwire
