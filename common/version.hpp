#pragma once
// The server's version, as server_version, version() and mz_version() report
// it. PostgreSQL 15 is the protocol and catalog dialect clients see.

namespace tandem {

inline constexpr const char* kServerVersion = "15.0 (tandem 0.1)";
inline constexpr const char* kServerVersionNum = "150000";
inline constexpr const char* kVersionString = "PostgreSQL 15.0 (tandem 0.1) on x86_64-pc-linux-gnu";
inline constexpr const char* kMzVersionString = "v0.1 (tandem)";

}  // namespace tandem
