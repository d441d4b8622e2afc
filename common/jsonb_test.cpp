// jsonb/json values: text input and output, the encoding's order
// (PostgreSQL's jsonb btree order), key mode, binary I/O; expected strings
// are PostgreSQL 15's.
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/func_resolve.hpp"
#include "common/jsonb.hpp"
#include "common/row.hpp"
#include "common/value_io.hpp"

using namespace tandem;

namespace {

const ColumnType kJsonb{TypeId::kJsonb};
const ColumnType kJson{TypeId::kJson};

// text -> jsonb -> text, or "ERR sqlstate message [detail]".
std::string rt(std::string_view in, const ColumnType& type = kJsonb) {
  RowArena arena;
  auto d = parse_datum(in, type, arena);
  if (!d.ok()) {
    std::string e = "ERR " + d.status().sqlstate() + " " + d.status().message();
    if (!d.status().detail().empty()) e += " [" + d.status().detail() + "]";
    return e;
  }
  // Through a Row and back, as every stored value goes.
  const Row row = Row::pack_one(*d);
  return datum_to_text(unpack_one(row), type);
}

Row packed(std::string_view text, bool key_mode) {
  RowArena arena;
  auto d = parse_datum(text, kJsonb, arena);
  REQUIRE(d.ok());
  Row r;
  RowPacker p(&r);
  p.set_normalize_numeric(key_mode);
  p.push(*d);
  p.push(Datum::from_int32(7));  // a following column must decode too
  return r;
}

}  // namespace

TEST_CASE("jsonb text output matches PostgreSQL", "[jsonb]") {
  CHECK(rt(R"({"b":1,"aa":2,"a":3,"a":4})") == R"({"a": 4, "b": 1, "aa": 2})");
  CHECK(rt(R"( [1, 2 , {"x" :[true,false,null]}] )") == R"([1, 2, {"x": [true, false, null]}])");
  CHECK(rt("[1.0, 1e2, 1E-2, -0, -0.0, 1.50]") == "[1.0, 100, 0.01, 0, 0.0, 1.50]");
  CHECK(rt(R"("a\"b\\c\/d\n\u0041\u001f")") == R"("a\"b\\c/d\nA\u001f")");
  CHECK(rt("{}") == "{}");
  CHECK(rt("[]") == "[]");
  CHECK(rt("  null ") == "null");
  CHECK(rt(R"("\ud83d\ude00")") == "\"\xF0\x9F\x98\x80\"");
}

TEST_CASE("json keeps its text and validates it", "[jsonb]") {
  CHECK(rt(R"({"b":1,  "a":[1,2]})", kJson) == R"({"b":1,  "a":[1,2]})");
  CHECK(rt("[1,", kJson) == "ERR 22P02 invalid input syntax for type json [The input string ended unexpectedly.]");
}

TEST_CASE("jsonb input errors carry PostgreSQL's detail", "[jsonb]") {
  CHECK(rt(R"({"a":1,})") == R"(ERR 22P02 invalid input syntax for type json [Expected string, but found "}".])");
  CHECK(rt("x") == R"(ERR 22P02 invalid input syntax for type json [Token "x" is invalid.])");
  CHECK(rt(R"({"a" 1})") == R"(ERR 22P02 invalid input syntax for type json [Expected ":", but found "1".])");
  CHECK(rt("") == "ERR 22P02 invalid input syntax for type json [The input string ended unexpectedly.]");
  CHECK(rt("1 2") == R"(ERR 22P02 invalid input syntax for type json [Expected end of input, but found "2".])");
  CHECK(rt("\"a\nb\"") == "ERR 22P02 invalid input syntax for type json [Character with value 0x0a must be escaped.]");
  CHECK(rt(R"("\u0000")") == R"(ERR 22P05 unsupported Unicode escape sequence [\u0000 cannot be converted to text.])");
  CHECK(rt("[1,]") == R"(ERR 22P02 invalid input syntax for type json [Expected JSON value, but found "]".])");
  CHECK(rt("01") == R"(ERR 22P02 invalid input syntax for type json [Token "01" is invalid.])");
}

TEST_CASE("jsonb encodings sort in PostgreSQL's jsonb order", "[jsonb]") {
  // Ascending, as PostgreSQL 15 sorts them (ORDER BY over a jsonb column).
  const std::vector<std::string> sorted = {
      "[]", "null", R"("")", R"("a")", R"("aa")", R"("b")", "-1", "0", "1.5", "2", "false", "true", "[0]", "[1]",
      "[null, 1]", "[1, 2]", R"([1, "a", 3])", "{}", R"({"a": 1})", R"({"a": 2})", R"({"aa": 0})", R"({"b": 0})",
      R"({"a": 1, "b": 2})",
  };
  for (bool key_mode : {false, true}) {
    std::vector<Row> rows;
    for (const auto& s : sorted) rows.push_back(packed(s, key_mode));
    CHECK(std::is_sorted(rows.begin(), rows.end()));
    CHECK(std::adjacent_find(rows.begin(), rows.end()) == rows.end());
  }
}

TEST_CASE("jsonb numbers keep their display scale except in key mode", "[jsonb]") {
  const Row full = packed("[1.50, 2]", false);
  const Row key = packed("[1.5, 2]", true);
  CHECK(full != key);
  CHECK(packed("[1.50, 2]", true) == key);
  CHECK(!packed_is_key_mode(RowIter(full).next_packed()));
  CHECK(packed_is_key_mode(RowIter(key).next_packed()));
  RowIter it(full);
  CHECK(datum_to_text(it.next(), kJsonb) == "[1.50, 2]");
  CHECK(it.next().as_int32() == 7);
  RowIter kit(key);
  CHECK(datum_to_text(kit.next(), kJsonb) == "[1.5, 2]");
  CHECK(kit.next().as_int32() == 7);
  RowArena arena;
  CHECK(compare_datums(*parse_datum("1.0", kJsonb, arena), *parse_datum("1", kJsonb, arena)) == 0);
  CHECK(compare_datums(*parse_datum("[1.0, 3]", kJsonb, arena), *parse_datum("[1, 2]", kJsonb, arena)) > 0);
}

TEST_CASE("jsonb binary format is version 1 and the text", "[jsonb]") {
  RowArena arena;
  const Datum d = *parse_datum(R"({"a": [1, 2]})", kJsonb, arena);
  std::string wire;
  send_datum(d, kJsonb, &wire);
  CHECK(wire == std::string("\x01") + R"({"a": [1, 2]})");
  auto back = recv_datum(wire, kJsonb, arena);
  REQUIRE(back.ok());
  CHECK(compare_datums(*back, d) == 0);
  CHECK(recv_datum(std::string("\x02{}"), kJsonb, arena).status().message() == "unsupported jsonb version number 2");
  std::string json_wire;
  send_datum(Datum::from_string("[1, 2]"), kJson, &json_wire);
  CHECK(json_wire == "[1, 2]");
}

TEST_CASE("jsonb_pretty indents by four spaces", "[jsonb]") {
  auto v = parse_json(R"({"a": [1, {}], "b": {"c": []}})", true);
  REQUIRE(v.ok());
  std::string s;
  format_jsonb_pretty(*v, &s);
  CHECK(s == "{\n    \"a\": [\n        1,\n        {\n        }\n    ],\n    \"b\": {\n        \"c\": [\n        ]\n    }\n}");
}

namespace {

// Binds `lhs op rhs` over literals of the given types and folds it.
std::string op(const char* lhs_type, std::string_view lhs, const char* op_name, const char* rhs_type,
               std::string_view rhs) {
  RowArena arena;
  auto lit = [&](const char* type, std::string_view text) {
    const ColumnType t = *type_from_name(type);
    return ScalarExpr::literal(*parse_datum(text, t, arena), t);
  };
  auto bound = resolve_operator(op_name, {lit(lhs_type, lhs), lit(rhs_type, rhs)});
  if (!bound.ok()) return "ERR " + bound.status().message();
  auto folded = fold(std::move(*bound));
  if (!folded.ok()) return "ERR " + folded.status().sqlstate() + " " + folded.status().message();
  const auto& l = std::get<Literal>(folded->node);
  if (l.is_null()) return "NULL";
  return datum_to_text(l.datum(), l.type);
}

}  // namespace

TEST_CASE("jsonb operators follow PostgreSQL", "[jsonb]") {
  CHECK(op("jsonb", R"({"a": {"b": [1, "x"]}})", "->", "text", "a") == R"({"b": [1, "x"]})");
  CHECK(op("jsonb", R"([1, "two"])", "->>", "int4", "-1") == "two");
  CHECK(op("jsonb", "5", "->", "int4", "0") == "5");
  CHECK(op("json", "5", "->", "int4", "0") == "NULL");
  CHECK(op("json", R"({"a": [1,  2]})", "->", "text", "a") == "[1,  2]");
  CHECK(op("jsonb", R"({"a": {"b": [10, 20]}})", "#>", "text[]", "{a,b,-1}") == "20");
  CHECK(op("jsonb", R"({"a": 1, "b": [1, 2, 3]})", "@>", "jsonb", R"({"b": [3, 1]})") == "t");
  CHECK(op("jsonb", R"({"a": [1, 2]})", "@>", "jsonb", R"({"a": 1})") == "f");
  CHECK(op("jsonb", "[1, 2]", "@>", "jsonb", "1") == "t");
  CHECK(op("jsonb", "1", "@>", "jsonb", "[1]") == "f");
  CHECK(op("jsonb", R"(["x", "y"])", "?", "text", "y") == "t");
  CHECK(op("jsonb", R"({"a": 1})", "?&", "text[]", "{a,b}") == "f");
  CHECK(op("jsonb", R"({"a": 1})", "||", "jsonb", R"({"a": 2, "b": 3})") == R"({"a": 2, "b": 3})");
  CHECK(op("jsonb", R"({"a": 1})", "||", "jsonb", "[1]") == R"([{"a": 1}, 1])");
  CHECK(op("jsonb", R"(["a", "b", "a"])", "-", "text", "a") == R"(["b"])");
  CHECK(op("jsonb", "1", "-", "text", "a") == "ERR 22023 cannot delete from scalar");
  CHECK(op("jsonb", R"({"a": {"b": 1, "c": 2}})", "#-", "text[]", "{a,b}") == R"({"a": {"c": 2}})");
  CHECK(op("jsonb", "1.0", "=", "jsonb", "1") == "t");
  CHECK(op("jsonb", "[]", "<", "jsonb", "1") == "t");
}
