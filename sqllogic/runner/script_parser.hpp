#pragma once
// Parser for sqllogictest scripts: SQLite's format plus Materialize's
// additions (see sqllogic/README.md for the directive list).
//
// Contract: parsing never fails as a whole. A record that cannot be
// understood becomes a RecordKind::kInvalid record carrying its line and the
// reason, so the runner can report it as a failure and go on with the file.
// Blank lines separate records; `#` lines between records (and between a
// record's skipif/onlyif conditions and its command) are comments.

#include <string_view>
#include <vector>

#include "sqllogic/runner/record.hpp"

namespace tandem::slt {

std::vector<Record> parse_script(std::string_view text);

}  // namespace tandem::slt
