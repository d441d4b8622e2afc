#pragma once
// Option values of SET, cluster options and WITH (...) option lists.
//
// These are not expressions: PostgreSQL's SET accepts identifiers, strings
// and numbers (`SET search_path = a, "B"`, `SET x TO 'v'`, `SET n = -1`),
// and Materialize's option lists are the same. Booleans (`SNAPSHOT = false`,
// `ON`) arrive as kIdent "false"/"on"; the consumer interprets them.

#include <string>
#include <vector>

#include "planner/parser/box.hpp"

namespace tandem::sql {

struct OptionValue {
  enum class Kind : uint8_t {
    kNone,    // `WITH (SNAPSHOT)`: option given without a value
    kIdent,   // case-folded identifier or keyword (on, false, utc)
    kString,  // unescaped string
    kNumber,  // source spelling, possibly with a leading '-'
  };
  Kind kind = Kind::kNone;
  std::string text;
  bool operator==(const OptionValue&) const = default;
};

// name [=] value. Multi-word names are joined by single spaces, lower case
// ("replication factor").
struct Option {
  std::string name;
  OptionValue value;
  SourcePos pos;
  bool operator==(const Option&) const = default;
};

}  // namespace tandem::sql
