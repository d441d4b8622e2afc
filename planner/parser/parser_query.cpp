// Parser: queries. WITH, set operations (INTERSECT binds tighter than
// UNION/EXCEPT, both left-associative), SELECT blocks, VALUES, FROM items
// with joins, ORDER BY / LIMIT / OFFSET / FETCH, and Materialize's AS OF.

#include "planner/parser/keywords.hpp"
#include "planner/parser/lexer.hpp"
#include "planner/parser/parser_impl.hpp"

namespace tandem::sql {

Result<Query> Parser::parse_paren_query() {
  TANDEM_RETURN_IF_ERROR(expect_op("("));
  TANDEM_ASSIGN_OR_RETURN(Query q, parse_query());
  TANDEM_RETURN_IF_ERROR(expect_op(")"));
  return q;
}

Result<Query> Parser::parse_query() {
  DepthGuard guard(this);
  TANDEM_RETURN_IF_ERROR(guard.status());
  Query q;
  q.pos = here();
  if (accept_word("with")) {
    q.recursive = accept_word("recursive");
    do {
      Cte cte;
      cte.pos = here();
      TANDEM_ASSIGN_OR_RETURN(cte.name, parse_identifier());
      if (peek_op("(")) {
        TANDEM_ASSIGN_OR_RETURN(cte.columns, parse_paren_identifier_list());
      }
      TANDEM_RETURN_IF_ERROR(expect_word("as"));
      if (!accept_word("materialized")) accept_words({"not", "materialized"});
      TANDEM_ASSIGN_OR_RETURN(Query body, parse_paren_query());
      cte.query = std::move(body);
      q.ctes.push_back(std::move(cte));
    } while (accept_op(","));
  }
  TANDEM_ASSIGN_OR_RETURN(q.body, parse_set_expr(0));
  const SourcePos clauses = here();
  if (accept_words({"order", "by"})) {
    TANDEM_ASSIGN_OR_RETURN(q.order_by, parse_order_by_list());
  }
  bool seen_limit = false, seen_offset = false;
  while (true) {
    if (!seen_limit && accept_word("limit")) {
      seen_limit = true;
      if (!accept_word("all")) {
        TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
        q.limit = std::move(e);
      }
    } else if (!seen_offset && accept_word("offset")) {
      seen_offset = true;
      TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
      q.offset = std::move(e);
      if (!accept_word("rows")) accept_word("row");
    } else if (!seen_limit && accept_word("fetch")) {
      seen_limit = true;
      if (!accept_word("first") && !accept_word("next")) return error_here();
      if (peek_word("row") || peek_word("rows")) {
        Expr one;
        one.node = NumberLiteral{"1"};
        one.pos = here();
        q.limit = std::move(one);
      } else {
        TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
        q.limit = std::move(e);
      }
      if (!accept_word("rows") && !accept_word("row")) return error_here();
      TANDEM_RETURN_IF_ERROR(expect_word("only"));
    } else {
      break;
    }
  }
  TANDEM_ASSIGN_OR_RETURN(q.as_of, parse_optional_as_of());
  return merge_paren_query(std::move(q), clauses);
}

// PostgreSQL's rule: ORDER BY, LIMIT and OFFSET written after a bare
// parenthesised query are that query's own (`(SELECT ... LIMIT 3) ORDER
// BY a` sorts before limiting), and giving one of them twice is an error.
Result<Query> Parser::merge_paren_query(Query q, SourcePos clauses) {
  auto* inner_box = std::get_if<Box<Query>>(&q.body.node);
  if (inner_box == nullptr) return q;
  if (q.order_by.empty() && !q.limit && !q.offset && q.ctes.empty() && !q.as_of) {
    Query bare = std::move(**inner_box);  // `((query))` is the query
    return bare;
  }
  if (q.order_by.empty() && !q.limit && !q.offset) return q;
  Query& inner = **inner_box;
  auto twice = [&](const char* what) {
    return Status::error(sqlstate::kSyntaxError, std::string("multiple ") + what + " clauses not allowed")
        .with_position(char_position(text_, clauses.offset));
  };
  if (!q.order_by.empty() && !inner.order_by.empty()) return twice("ORDER BY");
  if (q.limit && inner.limit) return twice("LIMIT");
  if (q.offset && inner.offset) return twice("OFFSET");
  if (!q.ctes.empty() && !inner.ctes.empty()) return twice("WITH");
  if (inner.as_of) return q;  // AS OF belongs to the whole statement: left for the binder to refuse
  Query merged = std::move(inner);
  if (!q.order_by.empty()) merged.order_by = std::move(q.order_by);
  if (q.limit) merged.limit = std::move(q.limit);
  if (q.offset) merged.offset = std::move(q.offset);
  if (!q.ctes.empty()) {
    merged.ctes = std::move(q.ctes);
    merged.recursive = q.recursive;
  }
  merged.as_of = std::move(q.as_of);
  merged.pos = q.pos;
  return merged;
}

Result<std::optional<AsOf>> Parser::parse_optional_as_of() {
  if (!accept_words({"as", "of"})) return std::optional<AsOf>();
  AsOf as_of;
  as_of.at_least = accept_words({"at", "least"});
  TANDEM_ASSIGN_OR_RETURN(as_of.time, parse_expr());
  return std::optional<AsOf>(std::move(as_of));
}

Result<SetExpr> Parser::parse_set_expr(int min_prec) {
  TANDEM_ASSIGN_OR_RETURN(SetExpr left, parse_set_primary());
  // Each turn wraps `left` once more (as parse_expr's operator chains do).
  ChainGuard chain(this);
  while (true) {
    TANDEM_RETURN_IF_ERROR(chain.step("set operations are"));
    SetOperation::Op op;
    int prec;
    if (peek_word("union")) op = SetOperation::Op::kUnion, prec = 1;
    else if (peek_word("except")) op = SetOperation::Op::kExcept, prec = 1;
    else if (peek_word("intersect")) op = SetOperation::Op::kIntersect, prec = 2;
    else break;
    if (prec <= min_prec) break;
    advance();
    SetOperation set_op;
    set_op.op = op;
    if (accept_word("all")) set_op.all = true;
    else accept_word("distinct");
    TANDEM_ASSIGN_OR_RETURN(SetExpr right, parse_set_expr(prec));
    set_op.left = std::move(left);
    set_op.right = std::move(right);
    SetExpr combined;
    combined.node = std::move(set_op);
    left = std::move(combined);
  }
  return left;
}

Result<SetExpr> Parser::parse_set_primary() {
  SetExpr out;
  if (peek_word("select")) {
    TANDEM_ASSIGN_OR_RETURN(Select s, parse_select());
    out.node = std::move(s);
  } else if (peek_word("values")) {
    TANDEM_ASSIGN_OR_RETURN(Values v, parse_values());
    out.node = std::move(v);
  } else if (peek_word("table")) {
    // TABLE t is SELECT * FROM t.
    Select s;
    s.pos = here();
    advance();
    TableRef ref;
    ref.pos = here();
    TANDEM_ASSIGN_OR_RETURN(ObjectName name, parse_object_name());
    ref.node = TableName{std::move(name), std::nullopt};
    Expr star;
    star.node = Star{};
    star.pos = s.pos;
    s.projection.push_back(SelectItem{std::move(star), std::nullopt});
    s.from.push_back(std::move(ref));
    out.node = std::move(s);
  } else if (peek_op("(")) {
    TANDEM_ASSIGN_OR_RETURN(Query q, parse_paren_query());
    out.node = Box<Query>(std::move(q));
  } else {
    return error_here();
  }
  return out;
}

Result<Values> Parser::parse_values() {
  Values v;
  v.pos = here();
  TANDEM_RETURN_IF_ERROR(expect_word("values"));
  do {
    TANDEM_RETURN_IF_ERROR(expect_op("("));
    TANDEM_ASSIGN_OR_RETURN(std::vector<Expr> row, parse_expr_list());
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
    v.rows.push_back(std::move(row));
  } while (accept_op(","));
  return v;
}

Result<Select> Parser::parse_select() {
  Select s;
  s.pos = here();
  TANDEM_RETURN_IF_ERROR(expect_word("select"));
  if (accept_word("distinct")) {
    s.distinct = Select::Distinct::kDistinct;
    if (accept_word("on")) {
      s.distinct = Select::Distinct::kDistinctOn;
      TANDEM_RETURN_IF_ERROR(expect_op("("));
      TANDEM_ASSIGN_OR_RETURN(s.distinct_on, parse_expr_list());
      TANDEM_RETURN_IF_ERROR(expect_op(")"));
    }
  } else {
    accept_word("all");
  }
  TANDEM_ASSIGN_OR_RETURN(s.projection, parse_select_items());
  if (accept_word("from")) {
    do {
      TANDEM_ASSIGN_OR_RETURN(TableRef ref, parse_table_ref());
      s.from.push_back(std::move(ref));
    } while (accept_op(","));
  }
  if (accept_word("where")) {
    TANDEM_ASSIGN_OR_RETURN(Expr w, parse_expr());
    s.where = std::move(w);
  }
  if (accept_words({"group", "by"})) {
    TANDEM_ASSIGN_OR_RETURN(s.group_by, parse_expr_list());
  }
  if (accept_word("having")) {
    TANDEM_ASSIGN_OR_RETURN(Expr h, parse_expr());
    s.having = std::move(h);
  }
  if (accept_word("window")) {
    do {
      NamedWindow w;
      TANDEM_ASSIGN_OR_RETURN(w.name, parse_identifier());
      TANDEM_RETURN_IF_ERROR(expect_word("as"));
      TANDEM_ASSIGN_OR_RETURN(w.spec, parse_window_spec());
      s.windows.push_back(std::move(w));
    } while (accept_op(","));
  }
  return s;
}

Result<std::vector<SelectItem>> Parser::parse_select_items() {
  std::vector<SelectItem> items;
  do {
    TANDEM_ASSIGN_OR_RETURN(SelectItem item, parse_select_item());
    items.push_back(std::move(item));
  } while (accept_op(","));
  return items;
}

Result<SelectItem> Parser::parse_select_item() {
  SelectItem item;
  TANDEM_ASSIGN_OR_RETURN(item.expr, parse_expr());
  if (peek_word("as") && !peek_word("of", 1)) {
    advance();
    TANDEM_ASSIGN_OR_RETURN(std::string alias, parse_column_label());
    item.alias = std::move(alias);
  } else if (peek().kind == TokenKind::kQuotedIdent ||
             (peek().kind == TokenKind::kWord && !is_reserved_for_column_alias(peek().text))) {
    item.alias = advance().text;
  }
  return item;
}

Result<std::optional<TableAlias>> Parser::parse_optional_alias() {
  if (peek_word("as") && !peek_word("of", 1)) {
    advance();
  } else if (!(peek().kind == TokenKind::kQuotedIdent ||
               (peek().kind == TokenKind::kWord && !is_reserved_for_table_alias(peek().text)))) {
    return std::optional<TableAlias>();
  }
  TableAlias alias;
  TANDEM_ASSIGN_OR_RETURN(alias.name, parse_identifier());
  if (peek_op("(")) {
    TANDEM_ASSIGN_OR_RETURN(alias.columns, parse_paren_identifier_list());
  }
  return std::optional<TableAlias>(std::move(alias));
}

Result<TableRef> Parser::parse_table_ref() {
  DepthGuard guard(this);
  TANDEM_RETURN_IF_ERROR(guard.status());
  TANDEM_ASSIGN_OR_RETURN(TableRef left, parse_table_primary());
  while (true) {
    SourcePos pos = here();
    size_t m = mark();
    Join join;
    join.natural = accept_word("natural");
    if (accept_word("cross")) join.kind = Join::Kind::kCross;
    else if (accept_word("inner")) join.kind = Join::Kind::kInner;
    else if (accept_word("left")) join.kind = Join::Kind::kLeft, accept_word("outer");
    else if (accept_word("right")) join.kind = Join::Kind::kRight, accept_word("outer");
    else if (accept_word("full")) join.kind = Join::Kind::kFull, accept_word("outer");
    if (!accept_word("join")) {
      if (mark() != m) return error_here();
      break;
    }
    TANDEM_ASSIGN_OR_RETURN(TableRef right, parse_table_primary());
    if (!join.natural && join.kind != Join::Kind::kCross) {
      if (accept_word("on")) {
        TANDEM_ASSIGN_OR_RETURN(Expr on, parse_expr());
        join.on = std::move(on);
      } else if (accept_word("using")) {
        TANDEM_ASSIGN_OR_RETURN(join.using_columns, parse_paren_identifier_list());
        if (accept_word("as")) {
          TANDEM_ASSIGN_OR_RETURN(std::string alias, parse_identifier());
          join.using_alias = std::move(alias);
        }
      } else {
        return error_here();
      }
    }
    join.left = std::move(left);
    join.right = std::move(right);
    TableRef combined;
    combined.pos = pos;
    combined.node = std::move(join);
    left = std::move(combined);
  }
  return left;
}

Result<TableRef> Parser::parse_table_primary() {
  TableRef ref;
  ref.pos = here();
  bool lateral = accept_word("lateral");
  if (peek_op("(")) {
    bool query_first = peek_query_start(1);
    if (query_first || peek_op("(", 1)) {
      size_t m = mark();
      auto q = parse_paren_query();
      if (q.ok()) {
        DerivedTable d;
        d.lateral = lateral;
        d.query = std::move(q).value();
        TANDEM_ASSIGN_OR_RETURN(d.alias, parse_optional_alias());
        ref.node = std::move(d);
        return ref;
      }
      if (query_first) return std::move(q).take_status();
      reset(m);
    }
    if (lateral) return error_here();
    advance();  // (
    NestedJoin nested;
    TANDEM_ASSIGN_OR_RETURN(TableRef inner, parse_table_ref());
    nested.join = std::move(inner);
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
    TANDEM_ASSIGN_OR_RETURN(nested.alias, parse_optional_alias());
    ref.node = std::move(nested);
    return ref;
  }
  TANDEM_ASSIGN_OR_RETURN(ObjectName name, parse_object_name());
  if (peek_op("(")) {
    TANDEM_ASSIGN_OR_RETURN(Expr call, parse_function_call(std::move(name.parts), ref.pos));
    TableFunction f;
    f.lateral = lateral;
    f.call = std::move(*call.as<FunctionCall>());
    f.with_ordinality = accept_words({"with", "ordinality"});
    TANDEM_ASSIGN_OR_RETURN(f.alias, parse_optional_alias());
    ref.node = std::move(f);
    return ref;
  }
  if (lateral) return error_here();
  TableName t;
  t.name = std::move(name);
  TANDEM_ASSIGN_OR_RETURN(t.alias, parse_optional_alias());
  ref.node = std::move(t);
  return ref;
}

}  // namespace tandem::sql
