// Lexer: tokens, normalization, quoting forms, operators, comments, errors.

#include <catch2/catch.hpp>

#include "planner/parser/keywords.hpp"
#include "planner/parser/lexer.hpp"

using namespace tandem::sql;

namespace {

std::vector<Token> lex_ok(std::string_view sql) {
  auto r = lex(sql);
  REQUIRE(r.ok());
  return std::move(r).value();
}

std::vector<std::string> texts(std::string_view sql) {
  std::vector<std::string> out;
  for (const Token& t : lex_ok(sql)) {
    if (t.kind != TokenKind::kEof) out.push_back(t.text);
  }
  return out;
}

}  // namespace

TEST_CASE("lexer: words fold to lower case, quoted identifiers do not", "[parser][lexer]") {
  auto toks = lex_ok("SeLeCt \"MixedCase\" \"a\"\"b\" _x1$");
  REQUIRE(toks.size() == 5);
  CHECK(toks[0].kind == TokenKind::kWord);
  CHECK(toks[0].text == "select");
  CHECK(toks[1].kind == TokenKind::kQuotedIdent);
  CHECK(toks[1].text == "MixedCase");
  CHECK(toks[2].text == "a\"b");
  CHECK(toks[3].text == "_x1$");
  CHECK(toks[4].kind == TokenKind::kEof);
  CHECK(toks[4].offset == 30);
}

TEST_CASE("lexer: numbers keep their spelling", "[parser][lexer]") {
  auto toks = lex_ok("1 1.5 .5 1e10 1.5E-3 10.");
  std::vector<std::string> want{"1", "1.5", ".5", "1e10", "1.5E-3", "10."};
  for (size_t i = 0; i < want.size(); ++i) {
    CHECK(toks[i].kind == TokenKind::kNumber);
    CHECK(toks[i].text == want[i]);
  }
}

TEST_CASE("lexer: string literal forms", "[parser][lexer]") {
  auto toks = lex_ok("'it''s' E'a\\nb\\x41\\u00e9\\'' $$a'b;$$ $tag$x$$y$tag$ 'a'\n  'b' N'n'");
  CHECK(toks[0].text == "it's");
  CHECK(toks[1].text == "a\nbA\xc3\xa9'");
  CHECK(toks[2].text == "a'b;");
  CHECK(toks[3].text == "x$$y");
  CHECK(toks[4].text == "ab");  // adjacent literals across a newline
  CHECK(toks[5].text == "n");
  for (int i = 0; i < 6; ++i) CHECK(toks[i].kind == TokenKind::kString);
  // Without a newline, two strings stay separate tokens.
  CHECK(texts("'a' 'b'") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("lexer: parameters", "[parser][lexer]") {
  auto toks = lex_ok("$1 + $12");
  CHECK(toks[0].kind == TokenKind::kParam);
  CHECK(toks[0].text == "1");
  CHECK(toks[2].text == "12");
}

TEST_CASE("lexer: operators follow PostgreSQL's rules", "[parser][lexer]") {
  CHECK(texts("a<>b") == std::vector<std::string>{"a", "<>", "b"});
  CHECK(texts("a!=b") == std::vector<std::string>{"a", "<>", "b"});
  CHECK(texts("a->>'x'") == std::vector<std::string>{"a", "->>", "x"});
  CHECK(texts("a=-1") == std::vector<std::string>{"a", "=", "-", "1"});
  CHECK(texts("a@-1") == std::vector<std::string>{"a", "@-", "1"});
  CHECK(texts("x::int") == std::vector<std::string>{"x", "::", "int"});
  CHECK(texts("a||b") == std::vector<std::string>{"a", "||", "b"});
  CHECK(texts("a !~~* b <@ c @> d") == std::vector<std::string>{"a", "!~~*", "b", "<@", "c", "@>", "d"});
  CHECK(texts("a[1:2]") == std::vector<std::string>{"a", "[", "1", ":", "2", "]"});
  CHECK(texts("1--comment\n+2") == std::vector<std::string>{"1", "+", "2"});
  CHECK(texts("1+/*c*/2") == std::vector<std::string>{"1", "+", "2"});
}

TEST_CASE("lexer: nested block comments", "[parser][lexer]") {
  CHECK(texts("a /* x /* y */ z */ b") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("lexer: errors carry 42601 and a character position", "[parser][lexer]") {
  auto r = lex("SELECT 'abc");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().sqlstate() == "42601");
  CHECK(r.status().message() == "unterminated quoted string at or near \"'abc\"");
  CHECK(r.status().position() == 8);

  r = lex("SELECT /* x");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() == "unterminated /* comment at or near \"/* x\"");

  r = lex("SELECT \"abc");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().rfind("unterminated quoted identifier", 0) == 0);

  r = lex("SELECT $$abc");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().rfind("unterminated dollar-quoted string", 0) == 0);

  r = lex("SELECT \"\"");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() == "zero-length delimited identifier at or near \"\"\"\"");

  // Positions count characters, not bytes.
  r = lex("SELECT 'é', 'x");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().position() == 13);
}

TEST_CASE("keywords: tables are sorted and classify words", "[parser][lexer]") {
  CHECK(keyword_tables_sorted());
  CHECK(is_reserved_keyword("select"));
  CHECK_FALSE(is_reserved_keyword("name"));
  CHECK(is_type_func_keyword("left"));
  CHECK(is_reserved_for_table_alias("set"));
  CHECK(ident_needs_quotes("Foo"));
  CHECK(ident_needs_quotes("from"));
  CHECK(ident_needs_quotes("a b"));
  CHECK_FALSE(ident_needs_quotes("foo_1"));
}

TEST_CASE("lexer: U& strings with Unicode escapes", "[parser][lexer]") {
  CHECK(texts("U&'d\\0061t\\+000061'") == std::vector<std::string>{"data"});
  CHECK(texts("u&'d!0061t!+000061' UESCAPE '!' x") == std::vector<std::string>{"data", "x"});
  CHECK(texts("U&'a\\\\b\\00e9'") == std::vector<std::string>{"a\\b\xc3\xa9"});
  CHECK(lex_ok("U&'x'")[0].kind == TokenKind::kString);
  auto bad = lex("U&'\\00'");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().sqlstate() == "22025");
  CHECK_FALSE(lex("U&'\\0000'").ok());
}

TEST_CASE("lexer: a NUL byte is 22021, as PostgreSQL answers E'\\000'", "[parser][lexer]") {
  // The HTTP API can send a raw NUL; a text value must never hold one.
  for (std::string_view sql : {std::string_view("SELECT 'a\0b'", 12), std::string_view("SELECT 1 -- \0", 13),
                               std::string_view("E'a\\000b'"), std::string_view("E'\\x00'"),
                               std::string_view("E'\\400'")}) {
    INFO(sql);
    auto r = lex(sql);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().sqlstate() == "22021");
    CHECK(r.status().message() == "invalid byte sequence for encoding \"UTF8\": 0x00");
  }
  CHECK(texts("E'\\x01\\001'") == std::vector<std::string>{"\x01\x01"});
}
