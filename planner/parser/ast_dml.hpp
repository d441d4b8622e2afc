#pragma once
// AST of data statements: INSERT, UPDATE, DELETE, TRUNCATE, SUBSCRIBE, COPY.

#include <optional>
#include <string>
#include <vector>

#include "planner/parser/ast_option.hpp"
#include "planner/parser/ast_query.hpp"

namespace tandem::sql {

// INSERT INTO t [AS a] [(cols)] {query | DEFAULT VALUES} [RETURNING items].
// VALUES (...) is a query whose body is Values.
struct Insert {
  ObjectName table;
  std::string alias;
  std::vector<std::string> columns;
  bool default_values = false;  // then `query` is null
  Box<Query> query;
  std::vector<SelectItem> returning;
  bool operator==(const Insert&) const = default;
};

struct Assignment {
  std::string column;
  Expr value;                  // ignored when default_value
  bool default_value = false;  // SET c = DEFAULT
  SourcePos pos;
  bool operator==(const Assignment&) const = default;
};
// UPDATE t [[AS] a] SET c = e, ... [WHERE cond] [RETURNING items]
struct Update {
  ObjectName table;
  std::string alias;
  std::vector<Assignment> assignments;
  Box<Expr> where;
  std::vector<SelectItem> returning;
  bool operator==(const Update&) const = default;
};
// DELETE FROM t [[AS] a] [USING from-items] [WHERE cond] [RETURNING items]
struct Delete {
  ObjectName table;
  std::string alias;
  std::vector<TableRef> using_tables;
  Box<Expr> where;
  std::vector<SelectItem> returning;
  bool operator==(const Delete&) const = default;
};
// TRUNCATE [TABLE] t, ...
struct Truncate {
  std::vector<ObjectName> tables;
  bool operator==(const Truncate&) const = default;
};

// SUBSCRIBE [TO] {obj | (query)} [ENVELOPE UPSERT (KEY (cols))]
//   [WITH (SNAPSHOT [= bool], PROGRESS [= bool])] [AS OF [AT LEAST] t]
//   [UP TO t]
struct Subscribe {
  std::optional<ObjectName> object;  // exactly one of object / query
  Box<Query> query;
  bool envelope_upsert = false;
  std::vector<std::string> upsert_key;
  std::vector<Option> options;
  std::optional<AsOf> as_of;
  Box<Expr> up_to;
  bool operator==(const Subscribe&) const = default;
};

// COPY t [(cols)] FROM STDIN [WITH (...)]
// COPY {t [(cols)] | (query) | (SUBSCRIBE ...)} TO STDOUT [WITH (...)]
// Old-style `WITH CSV HEADER` / `CSV` / `DELIMITER 'x'` become the options
// format = csv, header = true, delimiter = 'x'. Option names lower case.
struct Copy {
  enum class Direction : uint8_t { kFrom, kTo };
  Direction direction = Direction::kFrom;
  std::optional<ObjectName> table;  // exactly one of table / query / subscribe
  std::vector<std::string> columns;
  Box<Query> query;
  Box<Subscribe> subscribe;
  std::vector<Option> options;
  bool operator==(const Copy&) const = default;
};

}  // namespace tandem::sql
