// Arrays: text I/O (array_in/array_out), binary I/O (array_send/recv),
// the Row encoding's order, comparisons and casts; expected strings are
// PostgreSQL 15's.
#include <catch2/catch.hpp>

#include "common/array.hpp"
#include "common/eval.hpp"
#include "common/func_resolve.hpp"
#include "common/value_io.hpp"

using namespace tandem;

namespace {

ColumnType T(const char* name) { return *type_from_name(name); }

// text -> datum -> text, or "ERR sqlstate message [detail]".
std::string rt(const char* type, std::string_view in) {
  RowArena arena;
  const ColumnType t = T(type);
  auto d = parse_datum(in, t, arena);
  if (!d.ok()) {
    std::string e = "ERR " + d.status().sqlstate() + " " + d.status().message();
    if (!d.status().detail().empty()) e += " [" + d.status().detail() + "]";
    return e;
  }
  return datum_to_text(*d, t);
}

Datum parse(const char* type, std::string_view in, RowArena& arena) {
  auto d = parse_datum(in, T(type), arena);
  REQUIRE(d.ok());
  return *d;
}

}  // namespace

TEST_CASE("array types have PostgreSQL's OIDs and names", "[array]") {
  CHECK(type_oid(T("int4[]").id) == 1007);
  CHECK(type_oid(T("_text").id) == 1009);
  CHECK(type_oid(T("oid[]").id) == 1028);
  CHECK(type_oid(T("int2[]").id) == 1005);
  CHECK(type_oid(T("bool[]").id) == 1000);
  CHECK(type_oid(T("float8[]").id) == 1022);
  CHECK(type_oid(T("int8[]").id) == 1016);
  CHECK(format_type(T("integer[]")) == "integer[]");
  CHECK(format_type(*type_from_name("varchar[]", std::vector<int32_t>{10})) == "character varying(10)[]");
  CHECK(array_element_type(T("text[]").id) == TypeId::kText);
  CHECK(type_category(T("int4[]").id) == TypeCategory::kArray);
  CHECK(T("int[][]").id == TypeId::kInt4Array);
  CHECK(type_from_name("mz_timestamp[]").status().sqlstate() == "0A000");
  CHECK(type_from_name("nope[]").status().message() == "type \"nope[]\" does not exist");
}

TEST_CASE("array text I/O matches PostgreSQL", "[array]") {
  CHECK(rt("int4[]", "{1, 2 ,NULL}") == "{1,2,NULL}");
  CHECK(rt("int4[]", "  {}  ") == "{}");
  CHECK(rt("text[]", R"({"a b","x\"y","",null,"NULL", c ,d\,e})") == R"({"a b","x\"y","",NULL,"NULL",c,"d,e"})");
  CHECK(rt("text[]", R"({ a , "b" })") == "{a,b}");
  CHECK(rt("text[]", R"({"back\\slash","{brace}"})") == R"({"back\\slash","{brace}"})");
  CHECK(rt("bool[]", "{t,false}") == "{t,f}");
  CHECK(rt("float8[]", "{1.5,NaN,-Infinity}") == "{1.5,NaN,-Infinity}");
  CHECK(rt("numeric[]", "{1.50,2}") == "{1.50,2}");
  CHECK(rt("date[]", "{2020-01-02}") == "{2020-01-02}");
  CHECK(rt("timestamp[]", "{\"2020-01-02 03:04:05\"}") == "{\"2020-01-02 03:04:05\"}");
  CHECK(rt("int4[]", "{1,2") == "ERR 22P02 malformed array literal: \"{1,2\" [Unexpected end of input.]");
  CHECK(rt("int4[]", "1,2") ==
        "ERR 22P02 malformed array literal: \"1,2\" [Array value must start with \"{\" or dimension information.]");
  CHECK(rt("int4[]", "{1,,2}") == "ERR 22P02 malformed array literal: \"{1,,2}\" [Unexpected \",\" character.]");
  CHECK(rt("int4[]", "{1} x") == "ERR 22P02 malformed array literal: \"{1} x\" [Junk after closing right brace.]");
  CHECK(rt("int4[]", "{1,x}") == "ERR 22P02 invalid input syntax for type integer: \"x\"");
  CHECK(rt("int4[]", "{{1,2},{3,4}}") == "ERR 0A000 multidimensional arrays are not supported");
  CHECK(rt("int4[]", "[0:1]={1,2}") == "ERR 0A000 array dimension decorations are not supported");
  CHECK(rt("varchar[]", "{abc}") == "{abc}");
}

TEST_CASE("array binary I/O is array_send/array_recv", "[array]") {
  RowArena arena;
  const ColumnType t = T("int4[]");
  Datum d = parse("int4[]", "{7,NULL}", arena);
  std::string wire;
  send_datum(d, t, &wire);
  const std::string expected("\0\0\0\1\0\0\0\1\0\0\0\x17\0\0\0\2\0\0\0\1\0\0\0\4\0\0\0\7\xff\xff\xff\xff", 32);
  CHECK(wire == expected);
  auto back = recv_datum(wire, t, arena);
  REQUIRE(back.ok());
  CHECK(datum_to_text(*back, t) == "{7,NULL}");

  std::string empty;
  send_datum(parse("text[]", "{}", arena), T("text[]"), &empty);
  CHECK(empty == std::string("\0\0\0\0\0\0\0\0\0\0\0\x19", 12));
  CHECK(datum_to_text(*recv_datum(empty, T("text[]"), arena), T("text[]")) == "{}");
  // Wrong element type, two dimensions, truncated.
  CHECK(recv_datum(empty, t, arena).status().sqlstate() == "42804");
  std::string two = expected;
  two[3] = 2;
  CHECK(recv_datum(two, t, arena).status().sqlstate() == "0A000");
  CHECK(recv_datum(expected.substr(0, 30), t, arena).status().sqlstate() == "22P03");
}

TEST_CASE("arrays in rows sort and compare as PostgreSQL's arrays", "[array]") {
  RowArena arena;
  const char* ordered[] = {"{}", "{1}", "{1,2}", "{1,2,0}", "{1,3}", "{1,NULL}", "{2}"};
  std::vector<Row> rows;
  for (const char* a : ordered) rows.push_back(Row::pack_one(parse("int4[]", a, arena)));
  for (size_t i = 0; i + 1 < rows.size(); ++i) {
    INFO(ordered[i]);
    CHECK(rows[i] < rows[i + 1]);
    CHECK(compare_datums(unpack_one(rows[i]), unpack_one(rows[i + 1])) < 0);
  }
  // A row with an array column decodes, and columns after it too.
  Datum cols[] = {parse("text[]", R"({"a b",NULL})", arena), Datum::from_int32(5)};
  Row row = Row::pack(cols);
  CHECK(row_arity(row) == 2);
  std::vector<Datum> back = unpack(row);
  CHECK(datum_to_text(back[0], T("text[]")) == R"({"a b",NULL})");
  CHECK(back[1].as_int32() == 5);
  // SQL-equal numeric arrays are equal, and byte-equal in key mode.
  Datum a = parse("numeric[]", "{1.5}", arena);
  Datum b = parse("numeric[]", "{1.50}", arena);
  CHECK(compare_datums(a, b) == 0);
  Row ka, kb;
  RowPacker pa(&ka), pb(&kb);
  pa.set_normalize_numeric(true);
  pb.set_normalize_numeric(true);
  pa.push(a);
  pb.push(b);
  CHECK(ka == kb);
  CHECK(!packed_is_key_mode(Row::pack_one(a).bytes()));
  CHECK(packed_is_key_mode(Row::pack_one(parse("int4[]", "{1}", arena)).bytes()));
}

TEST_CASE("array casts go element by element", "[array]") {
  RowArena arena;
  auto cast = [&](const char* from, const char* text, const char* to) {
    auto d = cast_datum(parse(from, text, arena), T(from), T(to), true, arena);
    return d.ok() ? datum_to_text(*d, T(to)) : "ERR " + d.status().sqlstate();
  };
  CHECK(cast("int4[]", "{1,NULL}", "int8[]") == "{1,NULL}");
  CHECK(cast("text[]", "{1,2}", "int2[]") == "{1,2}");
  CHECK(cast("text[]", "{1,x}", "int2[]") == "ERR 22P02");
  CHECK(cast("int4[]", "{1,2}", "text") == "{1,2}");
  CHECK(can_cast(TypeId::kInt4Array, TypeId::kInt8Array, CastContext::kImplicit));
  CHECK(!can_cast(TypeId::kInt8Array, TypeId::kInt4Array, CastContext::kImplicit));
  CHECK(!can_cast(TypeId::kInt4Array, TypeId::kInt4, CastContext::kExplicit));
}
