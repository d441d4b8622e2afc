#include "frontend/pgwire/scram_common.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <cassert>

namespace tandem::pgwire::scram {
namespace {

bool is_base64_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}

}  // namespace

std::string base64_encode(std::string_view raw) {
  std::string out(4 * ((raw.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(raw.data()), static_cast<int>(raw.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = (text.size() >= 2 && text[text.size() - 2] == '=') ? 2 : 1;
  for (size_t i = 0; i < text.size() - padding; ++i) {
    if (!is_base64_char(text[i])) return std::nullopt;
  }
  if (text.empty()) return std::string();
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0 || static_cast<size_t>(n) != out.size()) return std::nullopt;
  // EVP_DecodeBlock counts the bytes the padding stands for; drop them.
  out.resize(out.size() - padding);
  return out;
}

Result<std::string> random_bytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) {
    return Status::error(sqlstate::kInternalError, "could not generate random bytes for SCRAM");
  }
  return out;
}

Result<std::string> generate_nonce() {
  TANDEM_ASSIGN_OR_RETURN(std::string raw, random_bytes(kRawNonceLength));
  return base64_encode(raw);
}

Key hmac_sha256(const uint8_t* key, size_t key_len, std::string_view data) {
  Key out{};
  unsigned int len = 0;
  const unsigned char* r = HMAC(EVP_sha256(), key, static_cast<int>(key_len),
                                reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(), &len);
  assert(r != nullptr && len == kKeyLength);
  (void)r;
  return out;
}

Key sha256(const Key& data) {
  Key out{};
  SHA256(data.data(), data.size(), out.data());
  return out;
}

Key salted_password(std::string_view password, std::string_view salt, int iterations) {
  Key out{};
  const int ok = PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                                   reinterpret_cast<const unsigned char*>(salt.data()), static_cast<int>(salt.size()),
                                   iterations, EVP_sha256(), static_cast<int>(out.size()), out.data());
  assert(ok == 1);
  (void)ok;
  return out;
}

Keys derive_keys(const Key& salted) {
  Keys k;
  k.client_key = hmac_sha256(salted.data(), salted.size(), "Client Key");
  k.stored_key = sha256(k.client_key);
  k.server_key = hmac_sha256(salted.data(), salted.size(), "Server Key");
  return k;
}

Key signature(const Key& key, std::string_view auth_message) {
  return hmac_sha256(key.data(), key.size(), auth_message);
}

bool constant_time_equal(const Key& a, const Key& b) { return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0; }

std::optional<std::string_view> AttributeReader::read(char name) {
  if (rest_.size() < 2 || rest_[0] != name || rest_[1] != '=') return std::nullopt;
  char ignored = 0;
  return read_any(&ignored);
}

std::optional<std::string_view> AttributeReader::read_any(char* name) {
  if (rest_.size() < 2 || rest_[1] != '=') return std::nullopt;
  const char letter = rest_[0];
  if (!((letter >= 'a' && letter <= 'z') || (letter >= 'A' && letter <= 'Z'))) return std::nullopt;
  *name = letter;
  const size_t comma = rest_.find(',', 2);
  std::string_view value = rest_.substr(2, comma == std::string_view::npos ? std::string_view::npos : comma - 2);
  // A ',' must be followed by another attribute.
  if (comma != std::string_view::npos && comma + 1 == rest_.size()) return std::nullopt;
  rest_ = comma == std::string_view::npos ? std::string_view() : rest_.substr(comma + 1);
  return value;
}

bool is_printable(std::string_view s) {
  for (char c : s) {
    if (c < 0x21 || c > 0x7e || c == ',') return false;
  }
  return true;
}

std::string escape_saslname(std::string_view user) {
  std::string out;
  out.reserve(user.size());
  for (char c : user) {
    if (c == ',') {
      out += "=2C";
    } else if (c == '=') {
      out += "=3D";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace tandem::pgwire::scram
