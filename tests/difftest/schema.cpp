#include "tests/difftest/schema.hpp"

#include <algorithm>

namespace tandem::difftest {

const char* type_sql(Type t) {
  switch (t) {
    case Type::kInt: return "int";
    case Type::kBigint: return "bigint";
    case Type::kNumeric: return "numeric";
    case Type::kDouble: return "double precision";
    case Type::kText: return "text";
    case Type::kBool: return "boolean";
    case Type::kDate: return "date";
    case Type::kJsonb: return "jsonb";
  }
  return "int";
}

bool is_number(Type t) {
  return t == Type::kInt || t == Type::kBigint || t == Type::kNumeric || t == Type::kDouble;
}

Type wider(Type a, Type b) {
  auto rank = [](Type t) {
    switch (t) {
      case Type::kInt: return 0;
      case Type::kBigint: return 1;
      case Type::kNumeric: return 2;
      default: return 3;
    }
  };
  return rank(a) >= rank(b) ? a : b;
}

bool comparable(Type a, Type b) { return a == b || (is_number(a) && is_number(b)); }

namespace {

const std::vector<std::string> kTexts = {"a", "b", "ab", "abc", "B", "", " a", "a%b", "a_c", "zz", "ba", "10"};
const std::vector<std::string> kNumerics = {"0", "1", "-1", "2.5", "-2.5", "0.001", "3.14159", "10.10", "100",
                                            "-0.5", "12345678.901", "7", "1.000"};
const std::vector<std::string> kDoubles = {"0", "1", "-1", "1.5", "-2.25", "0.1", "3.0e10", "-7.5e-5", "2", "100.5"};
// Numbers only in their shortest form: a grouping key prints in it (1.0 is 1).
const std::vector<std::string> kJsonbs = {R"({"a": 1, "b": "x"})", R"({"a": 2})", R"({"b": [1, 2]})",
                                          R"({"a": null})", "[1, 2]", "[]", "{}", R"(["a", 1])", R"("a")",
                                          "1", "2.5", "null", "true", R"({"a": {"b": 1}})"};
const std::vector<std::string> kDates = {"2024-01-01", "2024-02-29", "2023-12-31", "1999-06-15", "2024-01-02",
                                         "2000-01-01"};

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string small_int(Rng& rng) {
  if (rng.chance(0.02)) return rng.chance(0.5) ? "2147483647" : "-2147483647";
  return std::to_string(rng.range(-3, 9));
}

std::string raw_value(Rng& rng, Type t, bool special_floats) {
  switch (t) {
    case Type::kInt: return small_int(rng);
    case Type::kBigint:
      if (rng.chance(0.03)) return "9000000000";
      return std::to_string(rng.range(-3, 9));
    case Type::kNumeric: return rng.pick(kNumerics);
    case Type::kDouble:
      if (special_floats && rng.chance(0.03)) return rng.chance(0.5) ? "'NaN'" : "'-Infinity'";
      return rng.pick(kDoubles);
    case Type::kText: return quoted(rng.pick(kTexts));
    case Type::kBool: return rng.chance(0.5) ? "true" : "false";
    case Type::kDate: return "DATE " + quoted(rng.pick(kDates));
    case Type::kJsonb: return "CAST(" + quoted(rng.pick(kJsonbs)) + " AS jsonb)";
  }
  return "0";
}

}  // namespace

std::string value_literal(Rng& rng, Type t, double null_chance) {
  if (rng.chance(null_chance)) return "NULL";
  return raw_value(rng, t, true);
}

std::string expr_literal(Rng& rng, Type t, bool allow_null) {
  if (allow_null && rng.chance(0.08)) return std::string("CAST(NULL AS ") + type_sql(t) + ")";
  switch (t) {
    case Type::kInt: return std::to_string(rng.range(-2, 5));
    case Type::kBigint: return "CAST(" + std::to_string(rng.range(-2, 5)) + " AS bigint)";
    case Type::kNumeric: return rng.pick(kNumerics);
    case Type::kDouble: return "CAST(" + rng.pick(kDoubles) + " AS double precision)";
    default: return raw_value(rng, t, false);
  }
}

std::vector<Table> random_tables(Rng& rng, const SchemaOptions& opts) {
  // A pool of column names, each with a type; now and then one name gets a
  // second, different type in another table.
  std::vector<Type> types = {Type::kInt, Type::kInt, Type::kBigint, Type::kText, Type::kBool};
  if (opts.numeric) types.push_back(Type::kNumeric);
  if (opts.floats) types.push_back(Type::kDouble);
  if (opts.dates) types.push_back(Type::kDate);
  if (opts.jsonb) types.push_back(Type::kJsonb);
  const std::vector<std::string> names = {"a", "b", "c", "d", "e", "f", "g", "k"};
  std::vector<Column> pool;
  const int pool_size = rng.range(4, 7);
  for (int i = 0; i < pool_size; ++i) pool.push_back({names[static_cast<std::size_t>(i)], rng.pick(types)});

  std::vector<Table> tables;
  const int n = rng.range(2, 4);
  for (int i = 0; i < n; ++i) {
    Table t;
    t.name = "t" + std::to_string(i + 1);
    int ncols = rng.range(1, 4);
    if (opts.zero_column_tables && rng.chance(0.06)) ncols = 0;
    std::vector<Column> cols = pool;
    std::shuffle(cols.begin(), cols.end(), rng.engine());
    for (int c = 0; c < ncols && c < static_cast<int>(cols.size()); ++c) {
      Column col = cols[static_cast<std::size_t>(c)];
      if (rng.chance(0.08)) col.type = rng.pick(types);
      t.columns.push_back(col);
    }
    int nrows = rng.chance(0.12) ? 0 : rng.range(1, opts.max_rows);
    const double null_chance = rng.chance(0.3) ? 0.0 : 0.15;
    for (int r = 0; r < nrows; ++r) {
      if (!t.rows.empty() && rng.chance(0.15)) {
        t.rows.push_back(rng.pick(t.rows));  // a duplicate row
        continue;
      }
      std::vector<std::string> row;
      for (const auto& col : t.columns) row.push_back(value_literal(rng, col.type, null_chance));
      t.rows.push_back(std::move(row));
    }
    tables.push_back(std::move(t));
  }
  return tables;
}

std::string create_table_sql(const Table& t) {
  std::string out = "CREATE TABLE " + t.name + " (";
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (i) out += ", ";
    out += t.columns[i].name + " " + type_sql(t.columns[i].type);
  }
  return out + ")";
}

std::string insert_row_sql(const Table& t, const std::vector<std::string>& row) {
  if (t.columns.empty()) return "INSERT INTO " + t.name + " DEFAULT VALUES";
  std::string out = "INSERT INTO " + t.name + " VALUES (";
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i) out += ", ";
    out += row[i];
  }
  return out + ")";
}

namespace {

// `col op literal`, or `col IS NULL`.
std::string simple_predicate(Rng& rng, const Table& t) {
  const Column& col = rng.pick(t.columns);
  if (rng.chance(0.15)) return col.name + (rng.chance(0.5) ? " IS NULL" : " IS NOT NULL");
  if (col.type == Type::kBool) return rng.chance(0.5) ? col.name : "NOT " + col.name;
  static const std::vector<std::string> ops = {"=", "<", ">", "<=", ">=", "<>"};
  return col.name + " " + rng.pick(ops) + " " + expr_literal(rng, col.type, false);
}

std::string update_value(Rng& rng, const Column& col) {
  if (rng.chance(0.4)) return value_literal(rng, col.type, 0.1);
  switch (col.type) {
    case Type::kInt:
    case Type::kBigint:
    case Type::kNumeric:
    case Type::kDouble: return col.name + " + " + std::to_string(rng.range(1, 3));
    case Type::kText: return col.name + " || 'x'";
    case Type::kBool: return "NOT " + col.name;
    case Type::kDate: return col.name + " + 1";
    case Type::kJsonb: return col.name + " || CAST('[3]' AS jsonb)";
  }
  return "NULL";
}

}  // namespace

std::string random_dml(Rng& rng, const Table& t, const SchemaOptions& opts) {
  if (t.columns.empty()) {
    if (rng.chance(0.7)) return "INSERT INTO " + t.name + " DEFAULT VALUES";
    return "DELETE FROM " + t.name;
  }
  switch (rng.weighted({5, 3, 3})) {
    case 0: {
      std::string out = "INSERT INTO " + t.name + " VALUES ";
      const int n = rng.range(1, 3);
      for (int r = 0; r < n; ++r) {
        if (r) out += ", ";
        out += "(";
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
          if (c) out += ", ";
          out += value_literal(rng, t.columns[c].type, 0.15);
        }
        out += ")";
      }
      (void)opts;
      return out;
    }
    case 1: {
      const Column& col = rng.pick(t.columns);
      std::string out = "UPDATE " + t.name + " SET " + col.name + " = " + update_value(rng, col);
      if (rng.chance(0.85)) out += " WHERE " + simple_predicate(rng, t);
      return out;
    }
    default:
      if (rng.chance(0.05)) return "DELETE FROM " + t.name;
      return "DELETE FROM " + t.name + " WHERE " + simple_predicate(rng, t);
  }
}

std::string literal_from_text(Type t, const std::string& text) {
  switch (t) {
    case Type::kInt:
    case Type::kBigint:
    case Type::kNumeric: return text;
    case Type::kDouble: return quoted(text);
    case Type::kText: return quoted(text);
    case Type::kBool: return text == "t" ? "true" : "false";
    case Type::kDate: return "DATE " + quoted(text);
    case Type::kJsonb: return "CAST(" + quoted(text) + " AS jsonb)";
  }
  return text;
}

Type type_of_oid(unsigned oid) {
  switch (oid) {
    case 20: return Type::kBigint;
    case 1700: return Type::kNumeric;
    case 700:
    case 701: return Type::kDouble;
    case 25:
    case 1043: return Type::kText;
    case 16: return Type::kBool;
    case 1082: return Type::kDate;
    case 3802: return Type::kJsonb;
    default: return Type::kInt;
  }
}

}  // namespace tandem::difftest
