// Parser: CREATE / DROP / ALTER. Object kinds tandem does not support
// (sources, sinks, types, triggers, ...) and unsupported clauses of
// supported kinds (CHECK, REFERENCES, ALTER TABLE ADD COLUMN) parse to
// Unsupported so the executor answers 0A000 rather than 42601.

#include <cctype>

#include "planner/parser/parser_impl.hpp"

namespace tandem::sql {
namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

constexpr const char* kUnsupportedObjects[] = {
    "type", "source", "sink", "connection", "secret", "user", "function", "trigger",
    "database", "sequence", "extension", "procedure", "aggregate", "operator", "policy", "rule",
    "domain", "publication", "subscription", "server", "tablespace", "virtual", "group",
    "event", "foreign", "language", "cast", "collation", "conversion", "statistics", "owned",
    "network", "webhook", "continual", "unlogged", "recursive", "transform", "access",
};

bool is_unsupported_object(const Token& t) {
  for (const char* w : kUnsupportedObjects) {
    if (t.is_word(w)) return true;
  }
  return false;
}

}  // namespace

bool Parser::parse_object_type(ObjectType* type) {
  if (accept_word("table")) *type = ObjectType::kTable;
  else if (accept_word("view")) *type = ObjectType::kView;
  else if (accept_words({"materialized", "view"})) *type = ObjectType::kMaterializedView;
  else if (accept_word("index")) *type = ObjectType::kIndex;
  else if (accept_words({"cluster", "replica"})) *type = ObjectType::kClusterReplica;
  else if (accept_word("cluster")) *type = ObjectType::kCluster;
  else if (accept_word("schema")) *type = ObjectType::kSchema;
  else return false;
  return true;
}

Result<Statement> Parser::parse_create() {
  SourcePos pos = here();
  advance();  // CREATE
  bool or_replace = accept_words({"or", "replace"});
  bool temporary = accept_word("temp") || accept_word("temporary");
  if (!or_replace && accept_word("unique")) {
    if (!peek_word("index")) return error_here();
    TANDEM_ASSIGN_OR_RETURN(CreateIndex idx, parse_create_index_body(true));
    return make_stmt(pos, std::move(idx));
  }
  if (peek_word("table") && !or_replace) return parse_create_table(temporary);
  if (peek_word("view")) return parse_create_view(or_replace, temporary);
  if (peek_words({"materialized", "view"}) && !temporary) return parse_create_materialized_view(or_replace);
  if ((peek_word("index") || peek_words({"default", "index"})) && !or_replace && !temporary) {
    TANDEM_ASSIGN_OR_RETURN(CreateIndex idx, parse_create_index_body(false));
    return make_stmt(pos, std::move(idx));
  }
  if (peek_word("cluster") && !or_replace && !temporary) return parse_create_cluster();
  if (peek_word("role") && !or_replace && !temporary) return parse_role_ddl(pos, "create");
  if (peek_word("schema") && !or_replace && !temporary) {
    advance();
    CreateSchema s;
    s.if_not_exists = accept_words({"if", "not", "exists"});
    TANDEM_ASSIGN_OR_RETURN(s.name, parse_object_name());
    return make_stmt(pos, std::move(s));
  }
  if (is_unsupported_object(peek()) || peek_word("materialized") || peek_word("table")) {
    std::string what = "CREATE " + upper(peek().text);
    if (peek_word("virtual") || peek_word("foreign") || peek_word("event") ||
        peek_word("unlogged")) {
      what += " " + upper(peek(1).text);
    }
    return unsupported(std::move(what), pos);
  }
  return error_here();
}

Result<Statement> Parser::parse_create_table(bool temporary) {
  SourcePos pos = here();
  advance();  // TABLE
  CreateTable t;
  t.temporary = temporary;
  t.if_not_exists = accept_words({"if", "not", "exists"});
  TANDEM_ASSIGN_OR_RETURN(t.name, parse_object_name());
  if (peek_word("as")) return unsupported("CREATE TABLE AS", pos);
  TANDEM_RETURN_IF_ERROR(expect_op("("));
  if (!peek_op(")")) {
    do {
      TableConstraint c;
      c.pos = here();
      if (accept_word("constraint")) {
        TANDEM_ASSIGN_OR_RETURN(c.name, parse_identifier());
      }
      if (accept_words({"primary", "key"})) {
        c.primary_key = true;
      } else if (accept_word("unique")) {
        c.primary_key = false;
      } else if (peek_word("check") || peek_word("foreign") || peek_word("exclude")) {
        return unsupported(upper(peek().text) + " constraints", pos);
      } else if (!c.name.empty()) {
        return error_here();
      } else {
        TANDEM_ASSIGN_OR_RETURN(ColumnDef col, parse_column_def());
        if (col.name.empty()) return unsupported(col.type.name[0], pos);
        t.columns.push_back(std::move(col));
        continue;
      }
      TANDEM_ASSIGN_OR_RETURN(c.columns, parse_paren_identifier_list());
      t.constraints.push_back(std::move(c));
    } while (accept_op(","));
  }
  TANDEM_RETURN_IF_ERROR(expect_op(")"));
  if (accept_word("with")) {
    TANDEM_ASSIGN_OR_RETURN(t.with_options, parse_paren_options(false));
  } else if (peek_word("without")) {
    return unsupported("CREATE TABLE WITHOUT OIDS", pos);
  }
  return make_stmt(pos, std::move(t));
}

// Returns a ColumnDef with an empty name and type.name = {what} when the
// column uses an unsupported option (the caller turns it into Unsupported).
Result<ColumnDef> Parser::parse_column_def() {
  ColumnDef col;
  col.pos = here();
  TANDEM_ASSIGN_OR_RETURN(col.name, parse_identifier());
  TANDEM_ASSIGN_OR_RETURN(col.type, parse_type_name());
  while (true) {
    if (accept_word("constraint")) {
      TANDEM_ASSIGN_OR_RETURN(std::string ignored_name, parse_identifier());
      (void)ignored_name;  // constraint names of column options are not kept
    }
    if (accept_words({"not", "null"})) {
      col.not_null = true;
    } else if (accept_word("null")) {
      // explicit NULL: the default
    } else if (accept_word("default")) {
      TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr(bp::kLike));
      col.default_value = std::move(e);
    } else if (accept_words({"primary", "key"})) {
      col.primary_key = true;
      col.not_null = true;
    } else if (accept_word("unique")) {
      col.unique = true;
    } else if (peek_word("check") || peek_word("references") || peek_word("generated") ||
               peek_word("collate") || peek_word("autoincrement")) {
      ColumnDef unsupported_col;
      unsupported_col.type.name = {upper(peek().text) + " column option"};
      return unsupported_col;
    } else {
      break;
    }
  }
  return col;
}

Result<Statement> Parser::parse_create_view(bool or_replace, bool temporary) {
  SourcePos pos = here();
  advance();  // VIEW
  CreateView v;
  v.or_replace = or_replace;
  v.temporary = temporary;
  v.if_not_exists = accept_words({"if", "not", "exists"});
  TANDEM_ASSIGN_OR_RETURN(v.name, parse_object_name());
  if (peek_op("(")) {
    TANDEM_ASSIGN_OR_RETURN(v.columns, parse_paren_identifier_list());
  }
  TANDEM_RETURN_IF_ERROR(expect_word("as"));
  TANDEM_ASSIGN_OR_RETURN(v.query, parse_query());
  return make_stmt(pos, std::move(v));
}

Result<CreateMaterializedView> Parser::parse_create_mv_body(bool or_replace) {
  TANDEM_RETURN_IF_ERROR(expect_words({"materialized", "view"}));
  CreateMaterializedView v;
  v.or_replace = or_replace;
  v.if_not_exists = accept_words({"if", "not", "exists"});
  TANDEM_ASSIGN_OR_RETURN(v.name, parse_object_name());
  if (peek_op("(")) {
    TANDEM_ASSIGN_OR_RETURN(v.columns, parse_paren_identifier_list());
  }
  if (accept_words({"in", "cluster"})) {
    TANDEM_ASSIGN_OR_RETURN(v.in_cluster, parse_identifier());
  }
  TANDEM_RETURN_IF_ERROR(expect_word("as"));
  TANDEM_ASSIGN_OR_RETURN(v.query, parse_query());
  return v;
}

Result<Statement> Parser::parse_create_materialized_view(bool or_replace) {
  SourcePos pos = here();
  TANDEM_ASSIGN_OR_RETURN(CreateMaterializedView v, parse_create_mv_body(or_replace));
  return make_stmt(pos, std::move(v));
}

// At INDEX or DEFAULT INDEX. Index keys may carry ASC/DESC/NULLS (SQLite and
// PostgreSQL scripts write them); an arrangement is keyed, not ordered, so
// they do not change the index and are not kept.
Result<CreateIndex> Parser::parse_create_index_body(bool unique) {
  CreateIndex idx;
  idx.unique = unique;
  idx.default_index = accept_word("default");
  TANDEM_RETURN_IF_ERROR(expect_word("index"));
  idx.if_not_exists = accept_words({"if", "not", "exists"});
  if (peek_identifier()) {
    TANDEM_ASSIGN_OR_RETURN(idx.name, parse_identifier());
  }
  if (accept_words({"in", "cluster"})) {
    TANDEM_ASSIGN_OR_RETURN(idx.in_cluster, parse_identifier());
  }
  TANDEM_RETURN_IF_ERROR(expect_word("on"));
  TANDEM_ASSIGN_OR_RETURN(idx.on, parse_object_name());
  if (idx.default_index) return idx;
  if (accept_word("using")) {
    TANDEM_ASSIGN_OR_RETURN(idx.using_method, parse_identifier());
  }
  TANDEM_RETURN_IF_ERROR(expect_op("("));
  do {
    TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
    idx.key_parts.push_back(std::move(e));
    if (!accept_word("asc")) accept_word("desc");
    if (accept_word("nulls") && !accept_word("first") && !accept_word("last")) return error_here();
  } while (accept_op(","));
  TANDEM_RETURN_IF_ERROR(expect_op(")"));
  return idx;
}

Result<Statement> Parser::parse_create_cluster() {
  SourcePos pos = here();
  advance();  // CLUSTER
  auto parse_options = [&](std::vector<Option>* out) -> Status {
    if (peek_op("(")) {
      TANDEM_ASSIGN_OR_RETURN(*out, parse_paren_options(false));
      return Status::ok();
    }
    if (at_end()) return Status::ok();
    do {
      TANDEM_ASSIGN_OR_RETURN(Option o, parse_option(false));
      out->push_back(std::move(o));
    } while (accept_op(","));
    return Status::ok();
  };
  if (accept_word("replica")) {
    CreateClusterReplica r;
    TANDEM_ASSIGN_OR_RETURN(r.cluster, parse_identifier());
    TANDEM_RETURN_IF_ERROR(expect_op("."));
    TANDEM_ASSIGN_OR_RETURN(r.replica, parse_identifier());
    TANDEM_RETURN_IF_ERROR(parse_options(&r.options));
    return make_stmt(pos, std::move(r));
  }
  CreateCluster c;
  TANDEM_ASSIGN_OR_RETURN(c.name, parse_identifier());
  if (accept_word("replicas")) {
    c.has_replicas = true;
    TANDEM_RETURN_IF_ERROR(expect_op("("));
    if (!peek_op(")")) {
      do {
        ReplicaDefinition def;
        TANDEM_ASSIGN_OR_RETURN(def.name, parse_identifier());
        TANDEM_ASSIGN_OR_RETURN(def.options, parse_paren_options(false));
        c.replicas.push_back(std::move(def));
      } while (accept_op(","));
    }
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
    return make_stmt(pos, std::move(c));
  }
  TANDEM_RETURN_IF_ERROR(parse_options(&c.options));
  return make_stmt(pos, std::move(c));
}

Result<Statement> Parser::parse_drop() {
  SourcePos pos = here();
  advance();  // DROP
  if (peek_word("role")) return parse_role_ddl(pos, "drop");
  DropObjects d;
  if (!parse_object_type(&d.type)) {
    if (peek().kind == TokenKind::kWord) return unsupported("DROP " + upper(peek().text), pos);
    return error_here();
  }
  d.if_exists = accept_words({"if", "exists"});
  do {
    TANDEM_ASSIGN_OR_RETURN(ObjectName name, parse_object_name());
    d.names.push_back(std::move(name));
  } while (accept_op(","));
  if (accept_word("cascade")) d.cascade = true;
  else accept_word("restrict");
  return make_stmt(pos, std::move(d));
}

Result<Statement> Parser::parse_alter() {
  SourcePos pos = here();
  advance();  // ALTER
  if (accept_word("system")) {
    if (accept_word("set")) {
      AlterSystemSet s;
      TANDEM_ASSIGN_OR_RETURN(s.name, parse_column_label());
      if (!accept_op("=") && !accept_word("to")) return error_here();
      TANDEM_ASSIGN_OR_RETURN(s.values, parse_set_values(&s.to_default));
      return make_stmt(pos, std::move(s));
    }
    TANDEM_RETURN_IF_ERROR(expect_word("reset"));
    AlterSystemReset r;
    if (accept_word("all")) {
      r.all = true;
    } else {
      TANDEM_ASSIGN_OR_RETURN(r.name, parse_column_label());
    }
    return make_stmt(pos, std::move(r));
  }
  if (peek_word("role")) return parse_role_ddl(pos, "alter");
  size_t type_start = mark();
  AlterRename a;
  if (!parse_object_type(&a.type)) {
    if (peek().kind == TokenKind::kWord) return unsupported("ALTER " + upper(peek().text), pos);
    return error_here();
  }
  std::string type_words;
  size_t type_end = mark();
  for (size_t i = type_start; i < type_end; ++i) {
    reset(i);
    if (!type_words.empty()) type_words += ' ';
    type_words += upper(peek().text);
  }
  reset(type_end);
  a.if_exists = accept_words({"if", "exists"});
  if (a.type == ObjectType::kTable) accept_word("only");  // no inheritance: ONLY changes nothing
  TANDEM_ASSIGN_OR_RETURN(a.name, parse_object_name());
  if (a.type == ObjectType::kTable && peek_word("add") &&
      (peek_word("constraint", 1) || peek_word("primary", 1) || peek_word("unique", 1) || peek_word("check", 1) ||
       peek_word("foreign", 1) || peek_word("exclude", 1))) {
    advance();  // ADD
    AlterTableAddConstraint add;
    add.if_exists = a.if_exists;
    add.name = std::move(a.name);
    add.constraint.pos = here();
    if (accept_word("constraint")) {
      TANDEM_ASSIGN_OR_RETURN(add.constraint.name, parse_identifier());
    }
    if (accept_words({"primary", "key"})) {
      add.constraint.primary_key = true;
    } else if (accept_word("unique")) {
      add.constraint.primary_key = false;
    } else if (peek_word("check") || peek_word("foreign") || peek_word("exclude")) {
      return unsupported("ALTER TABLE ADD " + std::string(peek_word("foreign") ? "FOREIGN KEY" : upper(peek().text)) +
                         " constraints", pos);
    } else {
      return error_here();
    }
    TANDEM_ASSIGN_OR_RETURN(add.constraint.columns, parse_paren_identifier_list());
    return make_stmt(pos, std::move(add));
  }
  if (accept_words({"rename", "to"})) {
    TANDEM_ASSIGN_OR_RETURN(a.new_name, parse_identifier());
    return make_stmt(pos, std::move(a));
  }
  if (!a.if_exists && accept_words({"owner", "to"})) {
    AlterOwner o{a.type, std::move(a.name), ""};
    TANDEM_ASSIGN_OR_RETURN(o.new_owner, parse_identifier());
    return make_stmt(pos, std::move(o));
  }
  if (peek().kind != TokenKind::kWord) return error_here();
  std::string action = upper(peek().text);
  if (peek_word("add") || peek_word("drop") || peek_word("alter") || peek_word("rename")) {
    action += peek_word("constraint", 1) ? " CONSTRAINT" : " COLUMN";
  }
  return unsupported("ALTER " + type_words + " " + action, pos);
}

}  // namespace tandem::sql
