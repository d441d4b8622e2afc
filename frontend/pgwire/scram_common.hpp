#pragma once
// Pieces shared by the SCRAM-SHA-256 server (scram.hpp) and client
// (scram_client.hpp): RFC 5802 key derivation over OpenSSL, strict base64,
// nonce generation and a reader for the "a=value,b=value" attribute syntax.
// Pure functions; thread-safe (OpenSSL 3's RAND is thread-safe).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace tandem::pgwire::scram {

inline constexpr std::string_view kMechanism = "SCRAM-SHA-256";
inline constexpr int kDefaultIterations = 4096;  // PostgreSQL's scram_iterations default
inline constexpr size_t kKeyLength = 32;         // SHA-256 output
inline constexpr size_t kRawNonceLength = 18;    // PostgreSQL's SCRAM_RAW_NONCE_LEN
inline constexpr size_t kSaltLength = 16;        // PostgreSQL's SCRAM_DEFAULT_SALT_LEN

using Key = std::array<uint8_t, kKeyLength>;

std::string base64_encode(std::string_view raw);
// Strict RFC 4648 decoding (padding required, no whitespace); nullopt if invalid.
std::optional<std::string> base64_decode(std::string_view text);

// `n` cryptographically random bytes. Fails only if the RNG is unavailable.
Result<std::string> random_bytes(size_t n);
// A printable nonce: base64 of kRawNonceLength random bytes.
Result<std::string> generate_nonce();

Key hmac_sha256(const uint8_t* key, size_t key_len, std::string_view data);
Key sha256(const Key& data);
// Hi() of RFC 5802: PBKDF2-HMAC-SHA-256.
Key salted_password(std::string_view password, std::string_view salt, int iterations);

// The derived keys the exchange needs.
struct Keys {
  Key client_key;
  Key stored_key;
  Key server_key;
};
Keys derive_keys(const Key& salted);

// ClientSignature / ServerSignature = HMAC(key, AuthMessage).
Key signature(const Key& key, std::string_view auth_message);

bool constant_time_equal(const Key& a, const Key& b);

// Reads "x=value" attributes separated by ','. Values run to the next ','.
class AttributeReader {
 public:
  explicit AttributeReader(std::string_view text) : rest_(text) {}

  bool at_end() const { return rest_.empty(); }
  std::string_view rest() const { return rest_; }
  // The next attribute's letter without consuming it ('\0' at end).
  char peek() const { return rest_.empty() ? '\0' : rest_[0]; }
  // Consumes "<name>=value" and the ',' after it if any. Fails (nullopt) if
  // the next attribute is not `name`.
  std::optional<std::string_view> read(char name);
  // Consumes any attribute "<letter>=value"; stores the letter.
  std::optional<std::string_view> read_any(char* name);

 private:
  std::string_view rest_;
};

// A SCRAM nonce / value check: printable ASCII except ',' (RFC 5802 "printable").
bool is_printable(std::string_view s);

// Username escaping of RFC 5802 saslname: ',' -> "=2C", '=' -> "=3D".
std::string escape_saslname(std::string_view user);

}  // namespace tandem::pgwire::scram
