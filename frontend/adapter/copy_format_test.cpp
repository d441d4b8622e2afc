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

namespace {

// The rows a CopyRowSplitter yields when `data` arrives cut at `cuts`.
tandem::Result<std::vector<tandem::frontend::CopyRow>> split_in_pieces(std::string_view data,
                                                                       const CopyFormat& f,
                                                                       const std::vector<size_t>& cuts) {
  std::vector<tandem::frontend::CopyRow> rows;
  tandem::frontend::CopyRowSplitter splitter(f, [&](size_t line, const auto& fields) {
    tandem::frontend::CopyRow row;
    row.line = line;
    for (const auto& field : fields) {
      row.fields.emplace_back(field ? std::optional<std::string>(*field) : std::nullopt);
    }
    rows.push_back(std::move(row));
    return tandem::Status::ok();
  });
  size_t at = 0;
  for (size_t cut : cuts) {
    TANDEM_RETURN_IF_ERROR(splitter.feed(data.substr(at, cut - at)));
    at = cut;
  }
  TANDEM_RETURN_IF_ERROR(splitter.feed(data.substr(at)));
  TANDEM_RETURN_IF_ERROR(splitter.finish());
  return rows;
}

void check_every_cut(std::string_view data, const CopyFormat& f) {
  auto whole = parse_copy_data(data, f);
  for (size_t a = 0; a <= data.size(); ++a) {
    for (size_t b = a; b <= data.size(); ++b) {
      auto pieces = split_in_pieces(data, f, {a, b});
      INFO("cuts at " << a << " and " << b);
      REQUIRE(pieces.ok() == whole.ok());
      if (!whole.ok()) {
        CHECK(pieces.status().message() == whole.status().message());
        continue;
      }
      REQUIRE(pieces->size() == whole->size());
      for (size_t i = 0; i < whole->size(); ++i) {
        CHECK((*pieces)[i].line == (*whole)[i].line);
        CHECK((*pieces)[i].fields == (*whole)[i].fields);
      }
    }
  }
}

}  // namespace

TEST_CASE("COPY data cut anywhere into pieces splits into the same rows") {
  CopyFormat text;
  check_every_cut("1\tone\n2\t\\N\r\n3\ta\\tb\\\\c\n\\.\nignored\n", text);
  check_every_cut("1\tone\n2\ttwo", text);  // no final newline
  CopyFormat csv;
  csv.csv = true;
  csv.delimiter = ',';
  csv.null_string = "";
  csv.header = true;
  check_every_cut("a,b,c\n1,\"x,y\",\n2,\"\",\"say \"\"hi\"\"\"\r\n3,\"two\nlines\",z", csv);
  check_every_cut("a\n1,\"open\n", csv);  // unterminated quote: the same error
  CopyFormat escaped = csv;
  escaped.escape = '\\';
  escaped.header = false;
  check_every_cut("1,\"a\\\"\nb\",2\n3,\"c\\\\\",4\n", escaped);
}
