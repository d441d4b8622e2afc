// Parser: expressions with PostgreSQL's operator precedence.
//
// A Pratt loop over binding powers that mirror gram.y's precedence table
// (lowest first): OR, AND, NOT, IS/ISNULL/NOTNULL, comparison,
// BETWEEN/IN/LIKE/ILIKE/SIMILAR, other operators, + -, * / %, ^, AT,
// COLLATE, unary + -, [ ], ::, and field selection. parse_expr(min_bp)
// consumes infix operators binding tighter than min_bp, so binary operators
// are left-associative (the right operand is parsed with the operator's own
// power) and prefix operators parse their operand with theirs: `-2 ^ 2` is
// (-2) ^ 2, `- 2::int` is -(2::int), `NOT a = b` is NOT (a = b), and
// `x IS NULL = false` is (x IS NULL) = false, as in PostgreSQL.

#include "planner/parser/lexer.hpp"
#include "planner/parser/parser_impl.hpp"

namespace tandem::sql {
namespace {

using namespace bp;  // NOLINT: binding powers read best unqualified here

bool is_comparison(const std::string& op) {
  return op == "=" || op == "<" || op == ">" || op == "<=" || op == ">=" || op == "<>";
}

// Punctuation is never an infix operator.
bool is_punctuation(const std::string& op) {
  return op == "(" || op == ")" || op == "[" || op == "]" || op == "," || op == ";" ||
         op == "." || op == ":" || op == "::" || op == ":=" || op == ".." || op == "$" ||
         op == "=>";
}

int arithmetic_bp(const std::string& op) {
  if (op == "+" || op == "-") return kAdd;
  if (op == "*" || op == "/" || op == "%") return kMul;
  if (op == "^") return kExp;
  if (is_comparison(op)) return kCmp;
  return kOther;
}

Expr make(SourcePos pos, Expr::Node node) {
  Expr e;
  e.node = std::move(node);
  e.pos = pos;
  return e;
}

}  // namespace

Result<std::vector<Expr>> Parser::parse_expr_list() {
  std::vector<Expr> out;
  do {
    TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
    out.push_back(std::move(e));
  } while (accept_op(","));
  return out;
}

Result<Expr> Parser::parse_expr(int min_bp) {
  DepthGuard guard(this);
  TANDEM_RETURN_IF_ERROR(guard.status());
  const Token& first = peek();
  SourcePos start{first.offset};
  Expr left;
  // Prefix operators.
  if (first.is_word("not")) {
    advance();
    TANDEM_ASSIGN_OR_RETURN(Expr operand, parse_expr(kNot));
    left = make(start, UnaryOp{"not", std::move(operand)});
  } else if (first.is_op("-") || first.is_op("+")) {
    std::string op = advance().text;
    TANDEM_ASSIGN_OR_RETURN(Expr operand, parse_expr(kUnary));
    left = make(start, UnaryOp{std::move(op), std::move(operand)});
  } else if (first.kind == TokenKind::kOp && !is_punctuation(first.text) && first.text != "*" &&
             first.text != "(") {
    // Prefix user operators (~, @, |/, ||/, !!) bind like "other" operators.
    std::string op = advance().text;
    TANDEM_ASSIGN_OR_RETURN(Expr operand, parse_expr(kOther));
    left = make(start, UnaryOp{std::move(op), std::move(operand)});
  } else {
    TANDEM_ASSIGN_OR_RETURN(left, parse_primary());
  }

  // Each turn of this loop wraps `left` once more.
  ChainGuard chain(this);
  while (true) {
    TANDEM_RETURN_IF_ERROR(chain.step("expression is"));
    const Token& t = peek();
    SourcePos op_pos{t.offset};
    if (t.kind == TokenKind::kOp) {
      if (t.text == "::") {
        if (kCast <= min_bp) break;
        advance();
        TANDEM_ASSIGN_OR_RETURN(TypeName type, parse_type_name());
        left = make(op_pos, Cast{std::move(left), std::move(type)});
        continue;
      }
      if (t.text == "[") {
        if (kSubscript <= min_bp) break;
        advance();
        Subscript sub;
        if (!peek_op(":")) {
          TANDEM_ASSIGN_OR_RETURN(Expr index, parse_expr());
          sub.index = std::move(index);
        }
        if (accept_op(":")) {
          sub.slice = true;
          if (!peek_op("]")) {
            TANDEM_ASSIGN_OR_RETURN(Expr upper, parse_expr());
            sub.upper = std::move(upper);
          }
        }
        TANDEM_RETURN_IF_ERROR(expect_op("]"));
        sub.expr = std::move(left);
        left = make(op_pos, std::move(sub));
        continue;
      }
      if (t.text == "." && (peek(1).kind == TokenKind::kWord || peek(1).kind == TokenKind::kQuotedIdent)) {
        if (kField <= min_bp) break;
        advance();
        std::string field = advance().text;
        left = make(op_pos, FieldAccess{std::move(left), std::move(field)});
        continue;
      }
      if (is_punctuation(t.text)) break;
      int bp = arithmetic_bp(t.text);
      if (bp <= min_bp) break;
      std::string op = advance().text;
      // op ANY|ALL|SOME (subquery | array)
      if ((peek_word("any") || peek_word("some") || peek_word("all")) && peek_op("(", 1)) {
        Quantified q;
        q.all = advance().text == "all";
        advance();  // (
        if (peek_query_start()) {
          TANDEM_ASSIGN_OR_RETURN(Query query, parse_query());
          q.subquery = std::move(query);
        } else {
          TANDEM_ASSIGN_OR_RETURN(Expr array, parse_expr());
          q.array = std::move(array);
        }
        TANDEM_RETURN_IF_ERROR(expect_op(")"));
        q.left = std::move(left);
        q.op = std::move(op);
        left = make(op_pos, std::move(q));
        continue;
      }
      TANDEM_ASSIGN_OR_RETURN(Expr right, parse_expr(bp));
      left = make(op_pos, BinaryOp{std::move(op), std::move(left), std::move(right)});
      continue;
    }
    if (t.kind != TokenKind::kWord) break;
    const std::string& w = t.text;
    if (w == "or" || w == "and") {
      int bp = w == "or" ? kOr : kAnd;
      if (bp <= min_bp) break;
      std::string op = advance().text;
      TANDEM_ASSIGN_OR_RETURN(Expr right, parse_expr(bp));
      left = make(op_pos, BinaryOp{std::move(op), std::move(left), std::move(right)});
      continue;
    }
    if (w == "is" || w == "isnull" || w == "notnull") {
      if (kIs <= min_bp) break;
      advance();
      if (w == "isnull" || w == "notnull") {
        left = make(op_pos, IsTest{std::move(left), IsTest::Kind::kNull, w == "notnull"});
        continue;
      }
      bool negated = accept_word("not");
      if (accept_word("distinct")) {
        TANDEM_RETURN_IF_ERROR(expect_word("from"));
        TANDEM_ASSIGN_OR_RETURN(Expr right, parse_expr(kIs));
        left = make(op_pos, IsDistinctFrom{std::move(left), std::move(right), negated});
        continue;
      }
      IsTest::Kind kind;
      if (accept_word("null")) kind = IsTest::Kind::kNull;
      else if (accept_word("true")) kind = IsTest::Kind::kTrue;
      else if (accept_word("false")) kind = IsTest::Kind::kFalse;
      else if (accept_word("unknown")) kind = IsTest::Kind::kUnknown;
      else return error_here();
      left = make(op_pos, IsTest{std::move(left), kind, negated});
      continue;
    }
    if (w == "at" && peek_word("time", 1) && peek_word("zone", 2)) {
      if (kAt <= min_bp) break;
      advance(), advance(), advance();
      TANDEM_ASSIGN_OR_RETURN(Expr zone, parse_expr(kAt));
      FunctionCall call;
      call.name = {"timezone"};
      call.args.push_back(std::move(zone));
      call.args.push_back(std::move(left));
      left = make(op_pos, std::move(call));
      continue;
    }
    if (w == "operator" && peek_op("(", 1)) {
      // OPERATOR([schema.]op), as psql writes `OPERATOR(pg_catalog.~)`: the
      // operator itself with PostgreSQL's precedence for OPERATOR() ("any
      // other operator"). Only pg_catalog operators exist, so the
      // qualifier is checked and dropped.
      if (kOther <= min_bp) break;
      advance(), advance();
      if (peek().kind == TokenKind::kWord && peek_op(".", 1)) {
        if (peek().text != "pg_catalog") return error_here();
        advance(), advance();
      }
      if (peek().kind != TokenKind::kOp || is_punctuation(peek().text)) return error_here();
      std::string op = advance().text;
      TANDEM_RETURN_IF_ERROR(expect_op(")"));
      TANDEM_ASSIGN_OR_RETURN(Expr right, parse_expr(kOther));
      left = make(op_pos, BinaryOp{std::move(op), std::move(left), std::move(right)});
      continue;
    }
    if (w == "collate") {
      if (kCollate <= min_bp) break;
      advance();
      TANDEM_ASSIGN_OR_RETURN(ObjectName name, parse_object_name());
      left = make(op_pos, Collate{std::move(left), std::move(name.parts)});
      continue;
    }
    // [NOT] BETWEEN / IN / LIKE / ILIKE / SIMILAR TO
    bool negated = false;
    size_t k = 0;
    if (w == "not") {
      const Token& n = peek(1);
      if (!(n.is_word("between") || n.is_word("in") || n.is_word("like") || n.is_word("ilike") ||
            n.is_word("similar"))) {
        break;
      }
      negated = true;
      k = 1;
    }
    const Token& kw = peek(k);
    if (!(kw.is_word("between") || kw.is_word("in") || kw.is_word("like") || kw.is_word("ilike") ||
          kw.is_word("similar"))) {
      break;
    }
    if (kLike <= min_bp) break;
    std::string which = kw.text;
    for (size_t i = 0; i <= k; ++i) advance();
    if (which == "between") {
      Between b;
      b.negated = negated;
      if (accept_word("symmetric")) b.symmetric = true;
      else accept_word("asymmetric");
      TANDEM_ASSIGN_OR_RETURN(Expr low, parse_expr(kLike));
      TANDEM_RETURN_IF_ERROR(expect_word("and"));
      TANDEM_ASSIGN_OR_RETURN(Expr high, parse_expr(kLike));
      b.expr = std::move(left);
      b.low = std::move(low);
      b.high = std::move(high);
      left = make(op_pos, std::move(b));
      continue;
    }
    if (which == "in") {
      TANDEM_RETURN_IF_ERROR(expect_op("("));
      if (peek_query_start()) {
        TANDEM_ASSIGN_OR_RETURN(Query q, parse_query());
        TANDEM_RETURN_IF_ERROR(expect_op(")"));
        left = make(op_pos, InSubquery{std::move(left), std::move(q), negated});
      } else {
        TANDEM_ASSIGN_OR_RETURN(std::vector<Expr> list, parse_expr_list());
        TANDEM_RETURN_IF_ERROR(expect_op(")"));
        // `e IN ((SELECT ...))`: a parenthesised query, not a list of one
        // scalar subquery (PostgreSQL's select_with_parens).
        if (auto* sub = list.size() == 1 ? list.front().as<Subquery>() : nullptr) {
          Query q = std::move(*sub->query);
          left = make(op_pos, InSubquery{std::move(left), std::move(q), negated});
          continue;
        }
        left = make(op_pos, InList{std::move(left), std::move(list), negated});
      }
      continue;
    }
    Like like;
    like.negated = negated;
    if (which == "like") like.kind = Like::Kind::kLike;
    else if (which == "ilike") like.kind = Like::Kind::kILike;
    else {
      TANDEM_RETURN_IF_ERROR(expect_word("to"));
      like.kind = Like::Kind::kSimilar;
    }
    TANDEM_ASSIGN_OR_RETURN(Expr pattern, parse_expr(kLike));
    like.pattern = std::move(pattern);
    if (accept_word("escape")) {
      TANDEM_ASSIGN_OR_RETURN(Expr esc, parse_expr(kLike));
      like.escape = std::move(esc);
    }
    like.expr = std::move(left);
    left = make(op_pos, std::move(like));
  }
  return left;
}

}  // namespace tandem::sql
