#pragma once
// MD5 (RFC 1321), written here because common/ must not link OpenSSL. Used by
// the SQL md5() function; not for security. Threading: pure function.

#include <array>
#include <cstdint>
#include <string_view>

namespace tandem {

std::array<uint8_t, 16> md5_digest(std::string_view data);

}  // namespace tandem
