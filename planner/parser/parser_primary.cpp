// Parser: primary expressions: literals, names, function calls (with
// DISTINCT, ORDER BY, FILTER, OVER), CASE, CAST, EXISTS, ARRAY, ROW,
// subqueries, typed literals, and the SQL special forms that PostgreSQL's
// grammar rewrites into function calls (see ast_expr.hpp).

#include <cstdlib>

#include "planner/parser/keywords.hpp"
#include "planner/parser/parser_impl.hpp"

namespace tandem::sql {
namespace {

Expr make(SourcePos pos, Expr::Node node) {
  Expr e;
  e.node = std::move(node);
  e.pos = pos;
  return e;
}

Expr string_expr(SourcePos pos, std::string s) { return make(pos, StringLiteral{std::move(s)}); }

// SQL value functions written without parentheses.
bool is_value_function(const std::string& w) {
  return w == "current_date" || w == "current_time" || w == "current_timestamp" ||
         w == "localtime" || w == "localtimestamp" || w == "current_user" || w == "session_user" ||
         w == "user" || w == "current_role" || w == "current_catalog" || w == "current_schema";
}

const char* const kIntervalFields[] = {"year", "month", "day", "hour", "minute", "second"};

bool is_interval_field(const Token& t) {
  for (const char* f : kIntervalFields) {
    if (t.is_word(f)) return true;
  }
  return false;
}

}  // namespace

bool Parser::peek_query_start(size_t k) const {
  const Token& t = peek(k);
  if (t.kind != TokenKind::kWord) return false;
  if (t.text == "select" || t.text == "with" || t.text == "table") return true;
  return t.text == "values" && peek_op("(", k + 1);
}

Result<Expr> Parser::parse_primary() {
  const Token& t = peek();
  SourcePos pos{t.offset};
  switch (t.kind) {
    case TokenKind::kNumber:
      return make(pos, NumberLiteral{advance().text});
    case TokenKind::kString:
      return string_expr(pos, advance().text);
    case TokenKind::kParam: {
      const std::string& digits = advance().text;
      long v = digits.size() > 9 ? 0 : std::strtol(digits.c_str(), nullptr, 10);
      return make(pos, Parameter{static_cast<int32_t>(v)});
    }
    case TokenKind::kQuotedIdent:
      if (peek(1).kind == TokenKind::kString) {
        // "int4" '1': a typed literal whose type name is quoted, as the
        // printer writes a type name that needs quotes.
        bool handled = false;
        TANDEM_ASSIGN_OR_RETURN(Expr lit, parse_typed_literal(pos, &handled));
        if (handled) return lit;
      }
      return parse_word_primary();
    case TokenKind::kOp:
      if (t.text == "(") return parse_paren_primary();
      if (t.text == "*") {
        advance();
        return make(pos, Star{});
      }
      return error_here();
    case TokenKind::kEof:
      return error_here();
    case TokenKind::kWord:
      break;
  }
  const std::string& w = t.text;
  if (w == "null") {
    advance();
    return make(pos, NullLiteral{});
  }
  if (w == "true" || w == "false") {
    advance();
    return make(pos, BoolLiteral{w == "true"});
  }
  if (w == "case") return parse_case(pos);
  if (w == "cast") {
    advance();
    TANDEM_RETURN_IF_ERROR(expect_op("("));
    TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
    TANDEM_RETURN_IF_ERROR(expect_word("as"));
    TANDEM_ASSIGN_OR_RETURN(TypeName type, parse_type_name());
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
    return make(pos, Cast{std::move(e), std::move(type)});
  }
  if (w == "exists" && peek_op("(", 1)) {
    advance();
    TANDEM_ASSIGN_OR_RETURN(Query q, parse_paren_query());
    return make(pos, Exists{std::move(q)});
  }
  if (w == "array") return parse_array(pos);
  if (w == "row" && peek_op("(", 1)) {
    advance(), advance();
    RowExpr row;
    if (!peek_op(")")) {
      TANDEM_ASSIGN_OR_RETURN(row.elements, parse_expr_list());
    }
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
    return make(pos, std::move(row));
  }
  if (is_value_function(w)) {
    FunctionCall call;
    call.name = {w == "user" ? std::string("current_user") : w};
    advance();
    if (accept_op("(")) {
      if (!peek_op(")")) {
        TANDEM_ASSIGN_OR_RETURN(call.args, parse_expr_list());
      }
      TANDEM_RETURN_IF_ERROR(expect_op(")"));
    }
    return make(pos, std::move(call));
  }
  if (peek_op("(", 1)) {
    bool handled = false;
    TANDEM_ASSIGN_OR_RETURN(Expr special, parse_special_function(w, pos, &handled));
    if (handled) return special;
  }
  if (peek_type_keyword() || peek(1).kind == TokenKind::kString) {
    bool handled = false;
    TANDEM_ASSIGN_OR_RETURN(Expr lit, parse_typed_literal(pos, &handled));
    if (handled) return lit;
  }
  return parse_word_primary();
}

Result<Expr> Parser::parse_typed_literal(SourcePos pos, bool* handled) {
  *handled = false;
  size_t m = mark();
  const bool quoted = peek().kind == TokenKind::kQuotedIdent;
  if (peek(1).kind == TokenKind::kString &&
      (quoted || (peek().kind == TokenKind::kWord && !is_reserved_for_name(peek().text)))) {
    TypedLiteral lit;
    lit.type.pos = pos;
    lit.type.name = {advance().text};
    lit.value = advance().text;
    // Only the keyword INTERVAL takes fields ("interval" '1' day does not).
    if (!quoted && lit.type.name[0] == "interval" && is_interval_field(peek())) {
      lit.interval_fields = advance().text;
      if (accept_word("to")) {
        if (!is_interval_field(peek())) return error_here();
        lit.interval_fields += " to " + advance().text;
      }
      if (lit.interval_fields.size() >= 6 &&
          lit.interval_fields.compare(lit.interval_fields.size() - 6, 6, "second") == 0 &&
          accept_op("(")) {
        TANDEM_ASSIGN_OR_RETURN(int64_t p, parse_int_literal());
        lit.type.modifiers.push_back(static_cast<int32_t>(p));
        TANDEM_RETURN_IF_ERROR(expect_op(")"));
      }
    }
    *handled = true;
    return make(pos, std::move(lit));
  }
  // Multi-word or parameterized type names: timestamp(3) with time zone '...'.
  auto type = parse_type_name();
  if (!type.ok() || peek().kind != TokenKind::kString) {
    reset(m);
    return make(pos, NullLiteral{});
  }
  TypedLiteral lit;
  lit.type = std::move(type).value();
  lit.value = advance().text;
  *handled = true;
  return make(pos, std::move(lit));
}

Result<Expr> Parser::parse_word_primary() {
  const Token& t = peek();
  SourcePos pos{t.offset};
  // Type/function-name keywords (left, right, ...) may name functions only.
  if (t.kind == TokenKind::kWord && is_reserved_for_name(t.text) &&
      !(is_type_func_keyword(t.text) && peek_op("(", 1))) {
    return error_here();
  }
  std::vector<std::string> names{advance().text};
  while (peek_op(".")) {
    const Token& n = peek(1);
    if (n.is_op("*")) {
      advance(), advance();
      return make(pos, Star{std::move(names)});
    }
    if (n.kind != TokenKind::kWord && n.kind != TokenKind::kQuotedIdent) return error_at(n);
    advance();
    names.push_back(advance().text);
  }
  if (peek_op("(")) return parse_function_call(std::move(names), pos);
  return make(pos, ColumnRef{std::move(names)});
}

Result<Expr> Parser::parse_function_call(std::vector<std::string> name, SourcePos pos) {
  TANDEM_RETURN_IF_ERROR(expect_op("("));
  FunctionCall call;
  call.name = std::move(name);
  if (peek_op("*") && peek_op(")", 1)) {
    advance();
    call.star = true;
  } else if (!peek_op(")")) {
    if (accept_word("distinct")) call.distinct = true;
    else accept_word("all");
    TANDEM_ASSIGN_OR_RETURN(call.args, parse_expr_list());
    if (accept_words({"order", "by"})) {
      TANDEM_ASSIGN_OR_RETURN(call.order_by, parse_order_by_list());
    }
  }
  TANDEM_RETURN_IF_ERROR(expect_op(")"));
  if (peek_word("filter") && peek_op("(", 1)) {
    advance(), advance();
    TANDEM_RETURN_IF_ERROR(expect_word("where"));
    TANDEM_ASSIGN_OR_RETURN(Expr f, parse_expr());
    call.filter = std::move(f);
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
  }
  if (accept_word("over")) {
    if (peek_identifier()) {
      WindowSpec spec;
      spec.name = advance().text;
      call.over = std::move(spec);
    } else {
      TANDEM_ASSIGN_OR_RETURN(WindowSpec spec, parse_window_spec());
      call.over = std::move(spec);
    }
  }
  return make(pos, std::move(call));
}

Result<std::vector<OrderByItem>> Parser::parse_order_by_list() {
  std::vector<OrderByItem> out;
  do {
    OrderByItem item;
    TANDEM_ASSIGN_OR_RETURN(item.expr, parse_expr());
    if (accept_word("desc")) item.desc = true;
    else accept_word("asc");
    if (accept_word("nulls")) {
      if (accept_word("first")) item.nulls = OrderByItem::Nulls::kFirst;
      else if (accept_word("last")) item.nulls = OrderByItem::Nulls::kLast;
      else return error_here();
    }
    out.push_back(std::move(item));
  } while (accept_op(","));
  return out;
}

Result<WindowSpec> Parser::parse_window_spec() {
  TANDEM_RETURN_IF_ERROR(expect_op("("));
  WindowSpec spec;
  const bool clause = (peek_word("partition") && peek_word("by", 1)) || (peek_word("order") && peek_word("by", 1)) ||
                      peek_word("rows") || peek_word("range") || peek_word("groups");
  if (!clause && peek_identifier()) spec.base = advance().text;
  if (accept_words({"partition", "by"})) {
    TANDEM_ASSIGN_OR_RETURN(spec.partition_by, parse_expr_list());
  }
  if (accept_words({"order", "by"})) {
    TANDEM_ASSIGN_OR_RETURN(spec.order_by, parse_order_by_list());
  }
  WindowFrame& frame = spec.frame;
  if (accept_word("rows")) frame.units = WindowFrame::Units::kRows, spec.has_frame = true;
  else if (accept_word("range")) frame.units = WindowFrame::Units::kRange, spec.has_frame = true;
  else if (accept_word("groups")) frame.units = WindowFrame::Units::kGroups, spec.has_frame = true;
  if (spec.has_frame) {
    auto parse_bound = [&](WindowFrameBound* b) -> Status {
      if (accept_word("unbounded")) {
        if (accept_word("preceding")) b->kind = WindowFrameBound::Kind::kUnboundedPreceding;
        else if (accept_word("following")) b->kind = WindowFrameBound::Kind::kUnboundedFollowing;
        else return error_here();
        return Status::ok();
      }
      if (accept_words({"current", "row"})) {
        b->kind = WindowFrameBound::Kind::kCurrentRow;
        return Status::ok();
      }
      TANDEM_ASSIGN_OR_RETURN(Expr off, parse_expr(bp::kLike));
      b->offset = std::move(off);
      if (accept_word("preceding")) b->kind = WindowFrameBound::Kind::kPreceding;
      else if (accept_word("following")) b->kind = WindowFrameBound::Kind::kFollowing;
      else return error_here();
      return Status::ok();
    };
    if (accept_word("between")) {
      TANDEM_RETURN_IF_ERROR(parse_bound(&frame.start));
      TANDEM_RETURN_IF_ERROR(expect_word("and"));
      frame.has_end = true;
      TANDEM_RETURN_IF_ERROR(parse_bound(&frame.end));
    } else {
      TANDEM_RETURN_IF_ERROR(parse_bound(&frame.start));
    }
    if (peek_word("exclude")) {
      return Status::error(sqlstate::kFeatureNotSupported, "EXCLUDE in window frames is not supported yet")
          .with_position(char_position(text_, peek().offset));
    }
  }
  TANDEM_RETURN_IF_ERROR(expect_op(")"));
  return spec;
}

Result<Expr> Parser::parse_case(SourcePos pos) {
  advance();  // CASE
  Case c;
  if (!peek_word("when")) {
    TANDEM_ASSIGN_OR_RETURN(Expr operand, parse_expr());
    c.operand = std::move(operand);
  }
  while (accept_word("when")) {
    CaseWhen when;
    TANDEM_ASSIGN_OR_RETURN(when.condition, parse_expr());
    TANDEM_RETURN_IF_ERROR(expect_word("then"));
    TANDEM_ASSIGN_OR_RETURN(when.result, parse_expr());
    c.whens.push_back(std::move(when));
  }
  if (c.whens.empty()) return error_here();
  if (accept_word("else")) {
    TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
    c.else_result = std::move(e);
  }
  TANDEM_RETURN_IF_ERROR(expect_word("end"));
  return make(pos, std::move(c));
}

Result<Expr> Parser::parse_array(SourcePos pos) {
  advance();  // ARRAY
  if (peek_op("(")) {
    TANDEM_ASSIGN_OR_RETURN(Query q, parse_paren_query());
    return make(pos, ArraySubquery{std::move(q)});
  }
  // ARRAY[...] with nested bare [...] sub-arrays.
  auto parse_elements = [&](auto& self, SourcePos at) -> Result<Expr> {
    DepthGuard guard(this);
    TANDEM_RETURN_IF_ERROR(guard.status());
    TANDEM_RETURN_IF_ERROR(expect_op("["));
    ArrayExpr arr;
    if (!peek_op("]")) {
      do {
        if (peek_op("[")) {
          TANDEM_ASSIGN_OR_RETURN(Expr inner, self(self, here()));
          arr.elements.push_back(std::move(inner));
        } else {
          TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
          arr.elements.push_back(std::move(e));
        }
      } while (accept_op(","));
    }
    TANDEM_RETURN_IF_ERROR(expect_op("]"));
    return make(at, std::move(arr));
  };
  return parse_elements(parse_elements, pos);
}

Result<Expr> Parser::parse_paren_primary() {
  SourcePos pos = here();
  if (peek_query_start(1) || (peek_op("(", 1) && peek_query_start(2))) {
    // A scalar subquery, possibly `((SELECT 1) UNION (SELECT 2))`. If the
    // inner text is not a query after all (`((SELECT 1) + 1)`), fall back.
    size_t m = mark();
    bool may_be_expr = !peek_query_start(1);
    auto q = parse_paren_query();
    if (q.ok()) return make(pos, Subquery{std::move(q).value()});
    if (!may_be_expr) return std::move(q).take_status();
    reset(m);
  }
  advance();  // (
  TANDEM_ASSIGN_OR_RETURN(Expr first, parse_expr());
  if (accept_op(",")) {
    RowExpr row;
    row.elements.push_back(std::move(first));
    TANDEM_ASSIGN_OR_RETURN(std::vector<Expr> rest, parse_expr_list());
    for (auto& e : rest) row.elements.push_back(std::move(e));
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
    return make(pos, std::move(row));
  }
  TANDEM_RETURN_IF_ERROR(expect_op(")"));
  return first;
}

}  // namespace tandem::sql
