#pragma once
// The random schema and data of one round: column types, tables (possibly
// without columns, possibly empty, with NULLs and duplicate rows), SQL
// literals of each type, and the INSERT/UPDATE/DELETE statements that change
// the tables between checks.

#include <string>
#include <vector>

#include "tests/difftest/rng.hpp"

namespace tandem::difftest {

enum class Type { kInt, kBigint, kNumeric, kDouble, kText, kBool, kDate, kJsonb };

const char* type_sql(Type t);
// int, bigint, numeric and double precision: mutually comparable, and
// arithmetic between them resolves to the wider type.
bool is_number(Type t);
// The type PostgreSQL resolves `a op b` to, for two numbers.
Type wider(Type a, Type b);
// a and b can be compared with = and < (both numbers, or the same type).
bool comparable(Type a, Type b);

struct Column {
  std::string name;
  Type type;
};

struct Table {
  std::string name;
  std::vector<Column> columns;
  // Each row as SQL literals (NULL included), one per column.
  std::vector<std::vector<std::string>> rows;
};

struct SchemaOptions {
  bool zero_column_tables = true;
  bool numeric = true;
  bool floats = true;
  bool dates = true;
  bool jsonb = true;
  bool special_floats = true;  // NaN, Infinity
  int max_rows = 10;
};

// A literal of type t usable anywhere in an expression (typed, so that
// `NULL` and float literals resolve as PostgreSQL would for a column).
std::string expr_literal(Rng& rng, Type t, bool allow_null);
// A literal for an INSERT ... VALUES row (the column supplies the type).
std::string value_literal(Rng& rng, Type t, double null_chance);

// 2-4 tables over a shared pool of column names (so that USING and NATURAL
// find common columns), some empty, some with duplicate rows.
std::vector<Table> random_tables(Rng& rng, const SchemaOptions& opts);

std::string create_table_sql(const Table& t);
// One INSERT per row (zero-column tables: DEFAULT VALUES).
std::string insert_row_sql(const Table& t, const std::vector<std::string>& row);

// One random data change on `t`: INSERT of 1-3 rows, UPDATE or DELETE with
// a simple predicate.
std::string random_dml(Rng& rng, const Table& t, const SchemaOptions& opts);

// PostgreSQL's text output of a value of type t, back as a literal.
std::string literal_from_text(Type t, const std::string& text);
// The Type of a result column's type OID (int for unknown OIDs).
Type type_of_oid(unsigned oid);

}  // namespace tandem::difftest
