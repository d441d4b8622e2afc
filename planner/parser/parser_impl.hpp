#pragma once
// Parser: the recursive-descent parser over one statement's tokens. Internal
// to planner/parser (use parser.hpp). Its methods are implemented by family:
//   parser_core.cpp       token cursor, errors, names, type names, options
//   parser_expr.cpp       operator precedence (Pratt loop)
//   parser_primary.cpp    primary expressions, function calls, special forms
//   parser_query.cpp      queries, FROM items, joins
//   parser_statement.cpp  statement dispatch, session/transaction/cursors
//   parser_ddl.cpp        CREATE / DROP / ALTER
//   parser_dml.cpp        INSERT / UPDATE / DELETE / COPY / SUBSCRIBE
//   parser_show.cpp       SHOW and EXPLAIN
//
// The token range [begin, end) excludes the terminating `;` or EOF token;
// peeking past the range yields that terminator, so errors at the end of a
// statement read `syntax error at or near ";"` or `... at end of input`
// like PostgreSQL's. One-token lookahead suffices almost everywhere; the few
// genuinely ambiguous spots (typed literals vs column names, parenthesized
// joins vs subqueries) save and restore the cursor.
// Threading: a Parser is used by one thread for one statement.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "planner/parser/ast.hpp"
#include "planner/parser/lexer.hpp"
#include "planner/parser/token.hpp"

namespace tandem::sql {

// Expression binding powers, lowest first (see parser_expr.cpp).
namespace bp {
enum : int {
  kOr = 1, kAnd, kNot, kIs, kCmp, kLike, kOther, kAdd, kMul, kExp, kAt, kCollate, kUnary,
  kSubscript, kCast, kField,
};
}  // namespace bp

// A statement of `node` at `pos`.
inline Statement make_stmt(SourcePos pos, Statement::Node node) {
  Statement s;
  s.node = std::move(node);
  s.pos = pos;
  return s;
}

class Parser {
 public:
  Parser(std::string_view text, const std::vector<Token>& tokens, size_t begin, size_t end)
      : text_(text), toks_(tokens), pos_(begin), end_(end),
        stack_base_(reinterpret_cast<uintptr_t>(__builtin_frame_address(0))) {}

  // ---- parser_core.cpp: cursor and shared pieces ----
  const Token& peek(size_t k = 0) const {
    size_t i = pos_ + k;
    return toks_[i < end_ ? i : end_];
  }
  bool at_end() const { return pos_ >= end_; }
  const Token& advance() {
    const Token& t = peek();
    if (pos_ < end_) ++pos_;
    return t;
  }
  size_t mark() const { return pos_; }
  void reset(size_t m) { pos_ = m; }
  SourcePos here() const { return SourcePos{peek().offset}; }

  bool peek_word(const char* w, size_t k = 0) const { return peek(k).is_word(w); }
  bool peek_op(const char* o, size_t k = 0) const { return peek(k).is_op(o); }
  bool peek_words(std::initializer_list<const char*> ws) const;
  bool accept_word(const char* w);
  bool accept_op(const char* o);
  // Accepts the whole sequence or nothing.
  bool accept_words(std::initializer_list<const char*> ws);
  Status expect_word(const char* w);
  Status expect_op(const char* o);
  Status expect_words(std::initializer_list<const char*> ws);

  // Syntax error at the current token (PostgreSQL's wording).
  Status error_here() const;
  Status error_at(const Token& t) const;
  Status expect_end() const;
  // Guards recursion (deeply nested input must not overflow the stack):
  // fails with 54000 once the parser has used more than a fixed stack
  // budget (parser_core.cpp) below the frame that constructed it.
  Status enter();
  void leave() { --depth_; }

  // A column/object name part: unquoted non-reserved word or quoted ident.
  Result<std::string> parse_identifier();
  // Any word, including reserved ones (after AS, after a dot), or quoted.
  Result<std::string> parse_column_label();
  bool peek_identifier(size_t k = 0) const;
  Result<ObjectName> parse_object_name();
  Result<std::vector<std::string>> parse_identifier_list();  // a, b, c
  Result<std::vector<std::string>> parse_paren_identifier_list();  // (a, b)
  Result<TypeName> parse_type_name();
  bool peek_type_keyword() const;
  Result<int64_t> parse_int_literal();
  Result<OptionValue> parse_option_value();
  // name [=] value | name  (name may be several words)
  Result<Option> parse_option(bool allow_no_value);
  // (opt, opt, ...)
  Result<std::vector<Option>> parse_paren_options(bool allow_no_value);
  Result<std::vector<OptionValue>> parse_set_values(bool* to_default);

  // ---- parser_expr.cpp / parser_primary.cpp ----
  Result<Expr> parse_expr(int min_bp = 0);
  Result<std::vector<Expr>> parse_expr_list();  // e, e, ...
  Result<Expr> parse_primary();
  Result<Expr> parse_word_primary();
  Result<Expr> parse_paren_primary();
  Result<Expr> parse_function_call(std::vector<std::string> name, SourcePos pos);
  Result<Expr> parse_special_function(const std::string& word, SourcePos pos, bool* handled);
  Result<Expr> parse_case(SourcePos pos);
  Result<Expr> parse_array(SourcePos pos);
  Result<Expr> parse_typed_literal(SourcePos pos, bool* handled);
  Result<WindowSpec> parse_window_spec();
  Result<std::vector<OrderByItem>> parse_order_by_list();
  bool peek_query_start(size_t k = 0) const;

  // ---- parser_query.cpp ----
  Result<Query> merge_paren_query(Query q, SourcePos clauses);
  Result<Query> parse_query();
  Result<Query> parse_paren_query();  // ( query )
  Result<SetExpr> parse_set_expr(int min_prec);
  Result<SetExpr> parse_set_primary();
  Result<Select> parse_select();
  Result<Values> parse_values();
  Result<SelectItem> parse_select_item();
  Result<std::vector<SelectItem>> parse_select_items();
  Result<TableRef> parse_table_ref();      // with joins
  Result<TableRef> parse_table_primary();  // one item
  Result<std::optional<TableAlias>> parse_optional_alias();
  Result<std::optional<AsOf>> parse_optional_as_of();

  // ---- parser_statement.cpp ----
  Result<Statement> parse_statement();
  Result<Statement> parse_set();
  Result<Statement> parse_reset();
  Result<Statement> parse_show();
  Result<Statement> parse_begin();
  Result<TransactionModes> parse_transaction_modes();
  Result<Statement> parse_discard();
  Result<Statement> parse_declare();
  Result<Statement> parse_fetch();
  Result<Statement> parse_prepare();
  Result<Statement> parse_execute();
  Result<Statement> parse_deallocate();
  Statement unsupported(std::string what, SourcePos pos);

  // ---- parser_ddl.cpp ----
  Result<Statement> parse_create();
  Result<Statement> parse_create_table(bool temporary);
  Result<ColumnDef> parse_column_def();
  Result<Statement> parse_create_view(bool or_replace, bool temporary);
  Result<Statement> parse_create_materialized_view(bool or_replace);
  Result<CreateIndex> parse_create_index_body(bool unique);
  Result<CreateMaterializedView> parse_create_mv_body(bool or_replace);
  Result<Statement> parse_create_cluster();
  Result<Statement> parse_drop();
  Result<Statement> parse_alter();
  bool parse_object_type(ObjectType* type);

  // ---- parser_role.cpp ----
  // At ROLE, after CREATE/ALTER/DROP (`verb`, lower case) at `pos`.
  Result<Statement> parse_role_ddl(SourcePos pos, const char* verb);
  Result<RoleOptions> parse_role_options();
  Result<Statement> parse_grant();  // at GRANT or REVOKE

  // ---- parser_dml.cpp ----
  Result<Statement> parse_insert();
  Result<Statement> parse_update();
  Result<Statement> parse_delete();
  Result<Statement> parse_truncate();
  Result<Subscribe> parse_subscribe_body();
  Result<Statement> parse_copy();
  Result<std::vector<SelectItem>> parse_optional_returning();

  // ---- parser_show.cpp ----
  Result<Statement> parse_show_objects(bool* handled);
  Result<Statement> parse_explain();

 private:
  std::string_view text_;
  const std::vector<Token>& toks_;
  size_t pos_;
  size_t end_;
  int depth_ = 0;
  uintptr_t stack_base_;
  friend class ChainGuard;

 public:
  // Expressions nest at most this deep. Operator chains (`1 + 1 + ...`)
  // are parsed in a loop, not by recursion, so the stack budget above does
  // not bound them; every later pass (binding, planning, evaluation,
  // printing) recurses over the tree, so its height is bounded here.
  static constexpr int kMaxExprHeight = 1000;
  // Height of the operator chains being built by the parse_expr calls on
  // the stack (each wraps its left operand once per operator).
  int chain_height_ = 0;
};

// RAII for Parser::enter/leave.
class DepthGuard {
 public:
  explicit DepthGuard(Parser* p) : p_(p), status_(p->enter()) {}
  ~DepthGuard() { if (status_.is_ok()) p_->leave(); }
  const Status& status() const { return status_; }
 private:
  Parser* p_;
  Status status_;
};

// Counts the operator-chain levels one parse_expr / parse_set_expr loop
// adds (Parser::chain_height_) and gives them back on exit. step() checks
// the limit before each further level.
class ChainGuard {
 public:
  explicit ChainGuard(Parser* p) : p_(p) {}
  ~ChainGuard() { p_->chain_height_ -= turns_; }
  // 54000 `what` once chains and recursion nest past kMaxExprHeight.
  Status step(const char* what) {
    if (p_->chain_height_ + p_->depth_ > Parser::kMaxExprHeight) {
      return Status::error(sqlstate::kProgramLimitExceeded, std::string(what) + " too deeply nested")
          .with_detail("Expressions and set operations may nest at most " +
                       std::to_string(Parser::kMaxExprHeight) + " levels deep.")
          .with_position(char_position(p_->text_, p_->peek().offset));
    }
    ++turns_;
    ++p_->chain_height_;
    return Status::ok();
  }

 private:
  Parser* p_;
  int turns_ = 0;
};

}  // namespace tandem::sql
