#include "frontend/http/http_auth.hpp"

#include <algorithm>
#include <cctype>

#include <openssl/crypto.h>

#include "frontend/pgwire/scram_common.hpp"

namespace tandem::frontend::http {

Result<std::optional<Credentials>> parse_basic_authorization(std::string_view header) {
  while (!header.empty() && header.front() == ' ') header.remove_prefix(1);
  if (header.empty()) return std::optional<Credentials>();
  constexpr std::string_view kScheme = "Basic ";
  if (header.size() < kScheme.size() ||
      !std::equal(kScheme.begin(), kScheme.end(), header.begin(),
                  [](char a, char b) { return std::tolower(a) == std::tolower(b); })) {
    return Status::error(sqlstate::kInvalidAuthorizationSpecification,
                         "unsupported authorization scheme (expected HTTP Basic)");
  }
  std::string_view encoded = header.substr(kScheme.size());
  while (!encoded.empty() && encoded.front() == ' ') encoded.remove_prefix(1);
  while (!encoded.empty() && encoded.back() == ' ') encoded.remove_suffix(1);
  auto decoded = pgwire::scram::base64_decode(encoded);
  if (!decoded) {
    return Status::error(sqlstate::kInvalidAuthorizationSpecification, "malformed HTTP Basic credentials");
  }
  size_t colon = decoded->find(':');
  Credentials credentials;
  credentials.user = decoded->substr(0, colon);
  if (colon != std::string::npos) credentials.password = decoded->substr(colon + 1);
  return std::optional<Credentials>(std::move(credentials));
}

Result<std::string> authenticate(const pgwire::PasswordFile* passwords, const std::optional<Credentials>& credentials) {
  if (passwords == nullptr) {
    if (!credentials || credentials->user.empty()) return std::string(kDefaultUser);
    return credentials->user;
  }
  if (!credentials || credentials->user.empty()) {
    return Status::error(sqlstate::kInvalidAuthorizationSpecification,
                         "authentication required: send a user and password (HTTP Basic)");
  }
  auto expected = passwords->lookup(credentials->user);
  const std::string given = credentials->password.value_or("");
  // An unknown user is compared with a password of its own length, so the
  // time does not tell which users exist.
  std::string_view against = expected ? *expected : std::string_view(given);
  bool same = against.size() == given.size() && CRYPTO_memcmp(against.data(), given.data(), given.size()) == 0;
  if (!expected || !same || !credentials->password) {
    return Status::error(sqlstate::kInvalidPassword,
                         "password authentication failed for user \"" + credentials->user + "\"");
  }
  return credentials->user;
}

bool same_origin(std::string_view origin, std::string_view host) {
  if (origin.empty()) return true;
  for (std::string_view scheme : {std::string_view("http://"), std::string_view("https://")}) {
    if (origin.substr(0, scheme.size()) != scheme) continue;
    std::string_view authority = origin.substr(scheme.size());
    return !authority.empty() && authority.size() == host.size() &&
           std::equal(authority.begin(), authority.end(), host.begin(),
                      [](char a, char b) { return std::tolower(a) == std::tolower(b); });
  }
  return false;
}

}  // namespace tandem::frontend::http
