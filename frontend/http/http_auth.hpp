#pragma once
// Authentication of the HTTP and WebSocket APIs: the users and passwords of
// pgwire's --password-file (pgwire/password_file.hpp), sent with HTTP Basic
// (or in the WebSocket's first message). Without a password file every
// user is trusted, and a request naming none is user "materialize".
//
// Threading: pure functions.

#include <optional>
#include <string>
#include <string_view>

#include "common/status.hpp"
#include "frontend/pgwire/password_file.hpp"

namespace tandem::frontend::http {

inline constexpr const char* kDefaultUser = "materialize";

struct Credentials {
  std::string user;
  std::optional<std::string> password;
};

// The credentials of an Authorization header ("Basic base64(user:password)");
// nullopt for an empty header, 28000 for a malformed one or another scheme.
Result<std::optional<Credentials>> parse_basic_authorization(std::string_view header);

// The authenticated user: with `passwords`, the credentials must name a
// listed user with its password (28P01 otherwise, the same error for an
// unknown user as for a wrong password); without, any user (or none:
// kDefaultUser). The comparison takes the same time wherever it differs.
Result<std::string> authenticate(const pgwire::PasswordFile* passwords, const std::optional<Credentials>& credentials);

// Whether a request may use the SQL APIs as far as its Origin header goes.
// Browsers send Origin with every cross-site POST and WebSocket handshake,
// and a page on another site must not run SQL with a trusted (or a
// browser-kept) identity; the console itself is same-origin. True when
// `origin` is empty (curl, drivers and the tests send none) or is
// "http://" or "https://" followed by exactly `host` (the Host header),
// compared case-insensitively; false otherwise ("null" included).
bool same_origin(std::string_view origin, std::string_view host);

}  // namespace tandem::frontend::http
