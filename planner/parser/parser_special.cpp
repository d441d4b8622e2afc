// Parser: SQL special-syntax functions, rewritten to plain calls exactly as
// PostgreSQL's grammar does (see ast_expr.hpp for the mapping). When the
// call turns out to use ordinary argument syntax (`extract('year', x)`,
// `position(a, b)`, `substring(s, 1, 2)`) the generic call parser takes it,
// which is also how printed ASTs read back.

#include "planner/parser/parser_impl.hpp"

namespace tandem::sql {
namespace {

Expr make_call(SourcePos pos, const char* name, std::vector<Expr> args) {
  FunctionCall call;
  call.name = {name};
  call.args = std::move(args);
  Expr e;
  e.node = std::move(call);
  e.pos = pos;
  return e;
}

}  // namespace

Result<Expr> Parser::parse_special_function(const std::string& word, SourcePos pos, bool* handled) {
  *handled = false;
  size_t m = mark();
  if (word == "extract") {
    const Token& field = peek(2);
    if ((field.kind == TokenKind::kWord || field.kind == TokenKind::kString ||
         field.kind == TokenKind::kQuotedIdent) &&
        peek_word("from", 3)) {
      advance(), advance();
      SourcePos field_pos = here();
      std::string name = advance().text;
      advance();  // FROM
      TANDEM_ASSIGN_OR_RETURN(Expr source, parse_expr());
      TANDEM_RETURN_IF_ERROR(expect_op(")"));
      std::vector<Expr> args;
      Expr f;
      f.node = StringLiteral{std::move(name)};
      f.pos = field_pos;
      args.push_back(std::move(f));
      args.push_back(std::move(source));
      *handled = true;
      return make_call(pos, "extract", std::move(args));
    }
    return Expr{};
  }
  if (word == "position") {
    advance(), advance();
    auto needle = parse_expr(bp::kLike);
    if (needle.ok() && accept_word("in")) {
      TANDEM_ASSIGN_OR_RETURN(Expr haystack, parse_expr(bp::kLike));
      TANDEM_RETURN_IF_ERROR(expect_op(")"));
      std::vector<Expr> args;
      args.push_back(std::move(haystack));
      args.push_back(std::move(needle).value());
      *handled = true;
      return make_call(pos, "position", std::move(args));
    }
    reset(m);
    return Expr{};
  }
  if (word == "substring") {
    advance(), advance();
    auto source = parse_expr();
    if (source.ok() && (peek_word("from") || peek_word("for"))) {
      Box<Expr> from, count;
      while (peek_word("from") || peek_word("for")) {
        bool is_from = advance().text == "from";
        if ((is_from && from) || (!is_from && count)) return error_here();
        TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
        (is_from ? from : count) = std::move(e);
      }
      TANDEM_RETURN_IF_ERROR(expect_op(")"));
      std::vector<Expr> args;
      args.push_back(std::move(source).value());
      if (from) {
        args.push_back(std::move(*from));
      } else {
        Expr one;
        one.node = NumberLiteral{"1"};
        one.pos = pos;
        args.push_back(std::move(one));
      }
      if (count) args.push_back(std::move(*count));
      *handled = true;
      return make_call(pos, "substring", std::move(args));
    }
    reset(m);
    return Expr{};
  }
  if (word == "trim") {
    advance(), advance();
    const char* fn = "btrim";
    if (accept_word("leading")) fn = "ltrim";
    else if (accept_word("trailing")) fn = "rtrim";
    else accept_word("both");
    std::vector<Expr> args;
    if (accept_word("from")) {
      TANDEM_ASSIGN_OR_RETURN(args, parse_expr_list());
    } else {
      TANDEM_ASSIGN_OR_RETURN(Expr first, parse_expr());
      if (accept_word("from")) {
        TANDEM_ASSIGN_OR_RETURN(args, parse_expr_list());
        args.push_back(std::move(first));
      } else {
        args.push_back(std::move(first));
        while (accept_op(",")) {
          TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
          args.push_back(std::move(e));
        }
      }
    }
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
    *handled = true;
    return make_call(pos, fn, std::move(args));
  }
  return Expr{};
}

}  // namespace tandem::sql
