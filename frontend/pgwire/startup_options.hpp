#pragma once
// The `options` startup parameter: command-line switches for the session,
// as libpq sends PGOPTIONS / `options=...` (`-c search_path=a,b
// --cluster=c`). PostgreSQL's rules: arguments are separated by
// whitespace, a backslash takes the next character literally (so `\ `
// keeps a space inside a value), `-c name=value` and `-cname=value` set a
// parameter, and `--name=value` does too with `-` in the name read as `_`.
// Any other argument, or one without `=`, is 42601 "invalid command-line
// argument for server process: ARG", which PostgreSQL reports as FATAL.
//
// Pure; callable from any thread.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.hpp"

namespace tandem::pgwire {

// The (name, value) settings `options` holds, in order.
Result<std::vector<std::pair<std::string, std::string>>> parse_startup_options(std::string_view options);

}  // namespace tandem::pgwire
