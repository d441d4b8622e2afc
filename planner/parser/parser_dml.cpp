// Parser: INSERT, UPDATE, DELETE, TRUNCATE, SUBSCRIBE and COPY.

#include <cctype>

#include "planner/parser/parser_impl.hpp"

namespace tandem::sql {
namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

Option make_option(SourcePos pos, std::string name, OptionValue::Kind kind, std::string text) {
  Option o;
  o.name = std::move(name);
  o.value.kind = kind;
  o.value.text = std::move(text);
  o.pos = pos;
  return o;
}

}  // namespace

Result<std::vector<SelectItem>> Parser::parse_optional_returning() {
  if (!accept_word("returning")) return std::vector<SelectItem>();
  return parse_select_items();
}

Result<Statement> Parser::parse_insert() {
  SourcePos pos = here();
  advance();  // INSERT
  if (peek_word("or")) return unsupported("INSERT OR " + upper(peek(1).text), pos);
  TANDEM_RETURN_IF_ERROR(expect_word("into"));
  Insert ins;
  TANDEM_ASSIGN_OR_RETURN(ins.table, parse_object_name());
  if (accept_word("as")) {
    TANDEM_ASSIGN_OR_RETURN(ins.alias, parse_identifier());
  }
  if (peek_op("(") && !peek_query_start(1) && !peek_op("(", 1)) {
    TANDEM_ASSIGN_OR_RETURN(ins.columns, parse_paren_identifier_list());
  }
  if (accept_words({"default", "values"})) {
    ins.default_values = true;
  } else {
    TANDEM_ASSIGN_OR_RETURN(Query q, parse_query());
    ins.query = std::move(q);
  }
  if (peek_words({"on", "conflict"})) return unsupported("INSERT ... ON CONFLICT", pos);
  TANDEM_ASSIGN_OR_RETURN(ins.returning, parse_optional_returning());
  return make_stmt(pos, std::move(ins));
}

Result<Statement> Parser::parse_update() {
  SourcePos pos = here();
  advance();  // UPDATE
  if (peek_word("or")) return unsupported("UPDATE OR " + upper(peek(1).text), pos);
  Update u;
  TANDEM_ASSIGN_OR_RETURN(u.table, parse_object_name());
  TANDEM_ASSIGN_OR_RETURN(std::optional<TableAlias> alias, parse_optional_alias());
  if (alias) {
    if (!alias->columns.empty()) return error_here();
    u.alias = alias->name;
  }
  TANDEM_RETURN_IF_ERROR(expect_word("set"));
  do {
    Assignment a;
    a.pos = here();
    TANDEM_ASSIGN_OR_RETURN(a.column, parse_identifier());
    if (peek_op(".") || peek_op("[")) return unsupported("UPDATE of a column field or element", pos);
    TANDEM_RETURN_IF_ERROR(expect_op("="));
    if (peek_word("default") && (peek_op(",", 1) || peek_word("where", 1) || peek_word("returning", 1) ||
                                 peek(1).kind == TokenKind::kEof || peek_op(";", 1))) {
      advance();
      a.default_value = true;
    } else {
      TANDEM_ASSIGN_OR_RETURN(a.value, parse_expr());
    }
    u.assignments.push_back(std::move(a));
  } while (accept_op(","));
  if (peek_word("from")) return unsupported("UPDATE ... FROM", pos);
  if (accept_word("where")) {
    TANDEM_ASSIGN_OR_RETURN(Expr w, parse_expr());
    u.where = std::move(w);
  }
  TANDEM_ASSIGN_OR_RETURN(u.returning, parse_optional_returning());
  return make_stmt(pos, std::move(u));
}

Result<Statement> Parser::parse_delete() {
  SourcePos pos = here();
  advance();  // DELETE
  TANDEM_RETURN_IF_ERROR(expect_word("from"));
  Delete d;
  TANDEM_ASSIGN_OR_RETURN(d.table, parse_object_name());
  TANDEM_ASSIGN_OR_RETURN(std::optional<TableAlias> alias, parse_optional_alias());
  if (alias) {
    if (!alias->columns.empty()) return error_here();
    d.alias = alias->name;
  }
  if (accept_word("using")) {
    do {
      TANDEM_ASSIGN_OR_RETURN(TableRef ref, parse_table_ref());
      d.using_tables.push_back(std::move(ref));
    } while (accept_op(","));
  }
  if (accept_word("where")) {
    TANDEM_ASSIGN_OR_RETURN(Expr w, parse_expr());
    d.where = std::move(w);
  }
  TANDEM_ASSIGN_OR_RETURN(d.returning, parse_optional_returning());
  return make_stmt(pos, std::move(d));
}

Result<Statement> Parser::parse_truncate() {
  SourcePos pos = here();
  advance();  // TRUNCATE
  accept_word("table");
  Truncate t;
  do {
    TANDEM_ASSIGN_OR_RETURN(ObjectName name, parse_object_name());
    t.tables.push_back(std::move(name));
  } while (accept_op(","));
  return make_stmt(pos, std::move(t));
}

Result<Subscribe> Parser::parse_subscribe_body() {
  TANDEM_RETURN_IF_ERROR(expect_word("subscribe"));
  accept_word("to");
  Subscribe s;
  if (peek_op("(")) {
    TANDEM_ASSIGN_OR_RETURN(Query q, parse_paren_query());
    s.query = std::move(q);
  } else {
    TANDEM_ASSIGN_OR_RETURN(ObjectName name, parse_object_name());
    s.object = std::move(name);
  }
  if (accept_word("envelope")) {
    TANDEM_RETURN_IF_ERROR(expect_word("upsert"));
    s.envelope_upsert = true;
    TANDEM_RETURN_IF_ERROR(expect_op("("));
    TANDEM_RETURN_IF_ERROR(expect_word("key"));
    TANDEM_ASSIGN_OR_RETURN(s.upsert_key, parse_paren_identifier_list());
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
  }
  if (peek_word("with") && peek_op("(", 1)) {
    advance();
    TANDEM_ASSIGN_OR_RETURN(s.options, parse_paren_options(true));
  }
  TANDEM_ASSIGN_OR_RETURN(s.as_of, parse_optional_as_of());
  if (accept_words({"up", "to"})) {
    TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
    s.up_to = std::move(e);
  }
  return s;
}

Result<Statement> Parser::parse_copy() {
  SourcePos pos = here();
  advance();  // COPY
  Copy c;
  if (peek_op("(")) {
    advance();
    if (peek_word("subscribe")) {
      TANDEM_ASSIGN_OR_RETURN(Subscribe s, parse_subscribe_body());
      c.subscribe = std::move(s);
    } else {
      TANDEM_ASSIGN_OR_RETURN(Query q, parse_query());
      c.query = std::move(q);
    }
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
  } else {
    TANDEM_ASSIGN_OR_RETURN(ObjectName name, parse_object_name());
    c.table = std::move(name);
    if (peek_op("(")) {
      TANDEM_ASSIGN_OR_RETURN(c.columns, parse_paren_identifier_list());
    }
  }
  if (accept_word("from")) {
    c.direction = Copy::Direction::kFrom;
    if (!c.table) return error_here();
    if (peek().kind == TokenKind::kString || peek_word("program")) {
      return unsupported("COPY FROM a file or program", pos);
    }
    TANDEM_RETURN_IF_ERROR(expect_word("stdin"));
  } else if (accept_word("to")) {
    c.direction = Copy::Direction::kTo;
    if (peek().kind == TokenKind::kString || peek_word("program")) {
      return unsupported("COPY TO a file or program", pos);
    }
    TANDEM_RETURN_IF_ERROR(expect_word("stdout"));
  } else {
    return error_here();
  }
  bool with = accept_word("with");
  if (peek_op("(")) {
    TANDEM_ASSIGN_OR_RETURN(c.options, parse_paren_options(true));
    return make_stmt(pos, std::move(c));
  }
  // PostgreSQL's pre-9.0 option syntax.
  (void)with;
  while (true) {
    SourcePos opt_pos = here();
    if (accept_word("binary")) {
      c.options.push_back(make_option(opt_pos, "format", OptionValue::Kind::kIdent, "binary"));
    } else if (accept_word("csv")) {
      c.options.push_back(make_option(opt_pos, "format", OptionValue::Kind::kIdent, "csv"));
    } else if (accept_word("header")) {
      c.options.push_back(make_option(opt_pos, "header", OptionValue::Kind::kNone, ""));
    } else if (peek_word("delimiter") || peek_word("null") || peek_word("quote") || peek_word("escape")) {
      std::string name = advance().text;
      accept_word("as");
      if (peek().kind != TokenKind::kString) return error_here();
      c.options.push_back(make_option(opt_pos, std::move(name), OptionValue::Kind::kString, advance().text));
    } else {
      break;
    }
  }
  return make_stmt(pos, std::move(c));
}

}  // namespace tandem::sql
