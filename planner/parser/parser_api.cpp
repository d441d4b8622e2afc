// The public entry points of parser.hpp: lexing, splitting on `;` and
// driving a Parser per statement.

#include "planner/parser/parser.hpp"

#include "common/sqlstate.hpp"
#include "planner/parser/lexer.hpp"
#include "planner/parser/parser_impl.hpp"

namespace tandem::sql {
namespace {

// True when the statement starting at toks[begin] is CREATE [TEMP] TRIGGER,
// FUNCTION or PROCEDURE, whose body (SQLite's BEGIN ... END, PostgreSQL's
// BEGIN ATOMIC ... END) contains semicolons.
bool has_body(const std::vector<Token>& toks, size_t begin) {
  if (!toks[begin].is_word("create")) return false;
  for (size_t i = begin + 1; i < toks.size() && i < begin + 6; ++i) {
    const Token& t = toks[i];
    if (t.is_word("trigger") || t.is_word("function") || t.is_word("procedure")) return true;
  }
  return false;
}

// Calls `fn(begin, end)` for each non-empty `;`-separated token range. A
// statement with a body (see has_body) extends from BEGIN to the END that
// precedes a `;` or the end of input.
template <class Fn>
Status for_each_statement(const std::vector<Token>& toks, Fn&& fn) {
  size_t begin = 0;
  bool body_allowed = has_body(toks, 0);
  bool in_body = false;
  for (size_t i = 0; i < toks.size(); ++i) {
    const Token& t = toks[i];
    if (body_allowed && !in_body && t.is_word("begin")) in_body = true;
    if (in_body && t.kind != TokenKind::kEof) {
      if (!(t.is_word("end") && (toks[i + 1].is_op(";") || toks[i + 1].kind == TokenKind::kEof))) continue;
      in_body = false;
      continue;
    }
    if (t.kind == TokenKind::kEof || t.is_op(";")) {
      if (i > begin) TANDEM_RETURN_IF_ERROR(fn(begin, i));
      begin = i + 1;
      if (begin < toks.size()) body_allowed = has_body(toks, begin);
    }
  }
  return Status::ok();
}

template <class T, class Fn>
Result<T> parse_whole(std::string_view sql, Fn&& fn) {
  TANDEM_ASSIGN_OR_RETURN(std::vector<Token> toks, lex(sql));
  Parser p(sql, toks, 0, toks.size() - 1);
  TANDEM_ASSIGN_OR_RETURN(T out, fn(p));
  TANDEM_RETURN_IF_ERROR(p.expect_end());
  return out;
}

}  // namespace

Result<std::vector<ParsedStatement>> parse_statements(std::string_view sql) {
  TANDEM_ASSIGN_OR_RETURN(std::vector<Token> toks, lex(sql));
  std::vector<ParsedStatement> out;
  Status st = for_each_statement(toks, [&](size_t begin, size_t end) -> Status {
    Parser p(sql, toks, begin, end);
    TANDEM_ASSIGN_OR_RETURN(Statement stmt, p.parse_statement());
    TANDEM_RETURN_IF_ERROR(p.expect_end());
    ParsedStatement ps;
    ps.statement = std::move(stmt);
    ps.offset = toks[begin].offset;
    uint32_t stop = toks[end - 1].offset + toks[end - 1].length;
    ps.sql = std::string(sql.substr(ps.offset, stop - ps.offset));
    out.push_back(std::move(ps));
    return Status::ok();
  });
  if (!st.is_ok()) return st;
  return out;
}

Result<Statement> parse_one(std::string_view sql) {
  TANDEM_ASSIGN_OR_RETURN(std::vector<ParsedStatement> stmts, parse_statements(sql));
  if (stmts.size() > 1) {
    return Status::error(sqlstate::kSyntaxError,
                         "cannot insert multiple commands into a prepared statement");
  }
  if (stmts.empty()) {
    return Status::error(sqlstate::kSyntaxError, "syntax error at end of input")
        .with_position(char_position(sql, static_cast<uint32_t>(sql.size())));
  }
  return std::move(stmts[0].statement);
}

Result<Expr> parse_expression(std::string_view sql) {
  return parse_whole<Expr>(sql, [](Parser& p) { return p.parse_expr(); });
}

Result<Query> parse_query(std::string_view sql) {
  return parse_whole<Query>(sql, [](Parser& p) { return p.parse_query(); });
}

Result<TypeName> parse_type(std::string_view sql) {
  return parse_whole<TypeName>(sql, [](Parser& p) { return p.parse_type_name(); });
}

}  // namespace tandem::sql
