#include "frontend/adapter/copy_format.hpp"

#include <catch2/catch.hpp>

using tandem::frontend::CopyFormat;
using tandem::frontend::format_copy_row;
using tandem::frontend::parse_copy_data;

TEST_CASE("COPY text format: delimiters, NULL markers, escapes, end marker") {
  CopyFormat f;
  auto rows = parse_copy_data("1\tone\n2\t\\N\n3\ta\\tb\\\\c\n\\.\nignored\n", f);
  REQUIRE(rows.ok());
  REQUIRE(rows->size() == 3);
  CHECK(*(*rows)[0].fields[1] == "one");
  CHECK(!(*rows)[1].fields[1].has_value());
  CHECK(*(*rows)[2].fields[1] == "a\tb\\c");
  CHECK((*rows)[2].line == 3);
  std::string out;
  format_copy_row({std::string("a\tb"), std::nullopt, std::string("x\\y")}, f, &out);
  CHECK(out == "a\\tb\t\\N\tx\\\\y\n");
}

TEST_CASE("COPY csv format: quotes, NULLs, header, multi-line fields") {
  CopyFormat f;
  f.csv = true;
  f.delimiter = ',';
  f.null_string = "";
  f.header = true;
  auto rows = parse_copy_data("a,b,c\n1,\"x,y\",\n2,\"\",\"say \"\"hi\"\"\"\n3,\"two\nlines\",z", f);
  REQUIRE(rows.ok());
  REQUIRE(rows->size() == 3);
  CHECK(*(*rows)[0].fields[1] == "x,y");
  CHECK(!(*rows)[0].fields[2].has_value());
  CHECK(*(*rows)[1].fields[1] == "");
  CHECK(*(*rows)[1].fields[2] == "say \"hi\"");
  CHECK(*(*rows)[2].fields[1] == "two\nlines");
  CHECK(*(*rows)[2].fields[2] == "z");
  auto bad = parse_copy_data("1,\"open\n", f);
  CHECK(!bad.ok());
  std::string out;
  format_copy_row({std::string("x,y"), std::nullopt, std::string("q\"")}, f, &out);
  CHECK(out == "\"x,y\",,\"q\"\"\"\n");
}
