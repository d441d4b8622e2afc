// Parser: SHOW <objects> / SHOW COLUMNS / SHOW CREATE, and EXPLAIN.
// (SHOW <variable> is in parser_statement.cpp; SHOW <objects> is tried
// first and `handled` says whether it matched.)

#include "planner/parser/parser_impl.hpp"

namespace tandem::sql {
Result<Statement> Parser::parse_show_objects(bool* handled) {
  *handled = false;
  SourcePos pos = here();
  using Kind = ShowObjects::Kind;
  struct Entry {
    std::initializer_list<const char*> words;
    Kind kind;
  };
  static const Entry kEntries[] = {
      {{"show", "objects"}, Kind::kObjects},
      {{"show", "tables"}, Kind::kTables},
      {{"show", "views"}, Kind::kViews},
      {{"show", "materialized", "views"}, Kind::kMaterializedViews},
      {{"show", "indexes"}, Kind::kIndexes},
      {{"show", "indices"}, Kind::kIndexes},
      {{"show", "sources"}, Kind::kSources},
      {{"show", "sinks"}, Kind::kSinks},
      {{"show", "clusters"}, Kind::kClusters},
      {{"show", "cluster", "replicas"}, Kind::kClusterReplicas},
      {{"show", "schemas"}, Kind::kSchemas},
      {{"show", "databases"}, Kind::kDatabases},
      {{"show", "secrets"}, Kind::kSecrets},
      {{"show", "connections"}, Kind::kConnections},
  };
  auto parse_filter = [&](std::optional<std::string>* like, Box<Expr>* where) -> Status {
    if (accept_word("like")) {
      if (peek().kind != TokenKind::kString) return error_here();
      *like = advance().text;
    } else if (accept_word("where")) {
      TANDEM_ASSIGN_OR_RETURN(Expr e, parse_expr());
      *where = std::move(e);
    }
    return Status::ok();
  };
  for (const Entry& e : kEntries) {
    if (!accept_words(e.words)) continue;
    *handled = true;
    ShowObjects show;
    show.kind = e.kind;
    while (true) {
      if (!show.from && (peek_word("from") || (peek_word("in") && !peek_word("cluster", 1)))) {
        advance();
        TANDEM_ASSIGN_OR_RETURN(ObjectName name, parse_object_name());
        show.from = std::move(name);
      } else if (show.in_cluster.empty() && accept_words({"in", "cluster"})) {
        TANDEM_ASSIGN_OR_RETURN(show.in_cluster, parse_identifier());
      } else if (!show.on && accept_word("on")) {
        TANDEM_ASSIGN_OR_RETURN(ObjectName name, parse_object_name());
        show.on = std::move(name);
      } else {
        break;
      }
    }
    TANDEM_RETURN_IF_ERROR(parse_filter(&show.like, &show.where));
    return make_stmt(pos, std::move(show));
  }
  if (accept_words({"show", "columns"})) {
    *handled = true;
    if (!accept_word("from")) TANDEM_RETURN_IF_ERROR(expect_word("in"));
    ShowColumns show;
    TANDEM_ASSIGN_OR_RETURN(show.table, parse_object_name());
    TANDEM_RETURN_IF_ERROR(parse_filter(&show.like, &show.where));
    return make_stmt(pos, std::move(show));
  }
  if (peek_words({"show", "create"})) {
    size_t m = mark();
    advance(), advance();
    ShowCreate show;
    if (!parse_object_type(&show.type) || show.type == ObjectType::kSchema ||
        show.type == ObjectType::kClusterReplica) {
      if (peek().kind == TokenKind::kWord) {
        *handled = true;
        return unsupported("SHOW CREATE " + peek().text, pos);
      }
      reset(m);
      return make_stmt(pos, Commit{});
    }
    *handled = true;
    TANDEM_ASSIGN_OR_RETURN(show.name, parse_object_name());
    return make_stmt(pos, std::move(show));
  }
  return make_stmt(pos, Commit{});  // not handled; ignored by the caller
}

Result<Statement> Parser::parse_explain() {
  SourcePos pos = here();
  advance();  // EXPLAIN
  Explain ex;
  auto parse_format = [&]() -> Status {
    if (!accept_word("as")) return Status::ok();
    if (accept_word("text")) ex.format = Explain::Format::kText;
    else if (accept_word("json")) ex.format = Explain::Format::kJson;
    else return error_here();
    return Status::ok();
  };
  if (peek_word("analyze") || peek_word("analyse") || peek_word("verbose")) {
    return unsupported("EXPLAIN " + std::string(peek_word("verbose") ? "VERBOSE" : "ANALYZE"), pos);
  }
  if (peek_op("(") && !peek_query_start(1) && !peek_op("(", 1)) {
    return unsupported("EXPLAIN with PostgreSQL options", pos);
  }
  if (accept_word("timestamp")) {
    ex.stage = Explain::Stage::kTimestamp;
    TANDEM_RETURN_IF_ERROR(parse_format());
    TANDEM_RETURN_IF_ERROR(expect_word("for"));
    TANDEM_ASSIGN_OR_RETURN(Query q, parse_query());
    ex.explainee = std::move(q);
    return make_stmt(pos, std::move(ex));
  }
  bool staged = true;
  if (accept_words({"raw", "plan"})) ex.stage = Explain::Stage::kRaw;
  else if (accept_words({"decorrelated", "plan"})) ex.stage = Explain::Stage::kDecorrelated;
  else if (accept_words({"locally", "optimized", "plan"})) ex.stage = Explain::Stage::kLocallyOptimized;
  else if (accept_words({"optimized", "plan"})) ex.stage = Explain::Stage::kOptimized;
  else if (accept_words({"physical", "plan"})) ex.stage = Explain::Stage::kPhysical;
  else if (accept_word("plan")) ex.stage = Explain::Stage::kDefault;
  else staged = false;
  if (peek_word("with") && peek_op("(", 1)) {
    advance();
    TANDEM_ASSIGN_OR_RETURN(ex.modifiers, parse_paren_options(true));
  }
  if (staged) {
    TANDEM_RETURN_IF_ERROR(parse_format());
    TANDEM_RETURN_IF_ERROR(expect_word("for"));
  }
  if (peek_word("create")) {
    size_t m = mark();
    advance();
    if (peek_words({"materialized", "view"}) || peek_words({"or", "replace", "materialized"})) {
      bool or_replace = accept_words({"or", "replace"});
      TANDEM_ASSIGN_OR_RETURN(CreateMaterializedView mv, parse_create_mv_body(or_replace));
      ex.explainee = std::move(mv);
    } else if (peek_word("index") || peek_words({"default", "index"}) || peek_words({"unique", "index"})) {
      bool unique = accept_word("unique");
      TANDEM_ASSIGN_OR_RETURN(CreateIndex idx, parse_create_index_body(unique));
      ex.explainee = std::move(idx);
    } else {
      reset(m + 1);
      return error_here();
    }
    return make_stmt(pos, std::move(ex));
  }
  if (peek_word("index") || peek_words({"materialized", "view"})) {
    ExplainObject obj;
    obj.type = accept_word("index") ? ObjectType::kIndex : ObjectType::kMaterializedView;
    if (obj.type == ObjectType::kMaterializedView) advance(), advance();
    TANDEM_ASSIGN_OR_RETURN(obj.name, parse_object_name());
    ex.explainee = std::move(obj);
    return make_stmt(pos, std::move(ex));
  }
  TANDEM_ASSIGN_OR_RETURN(Query q, parse_query());
  ex.explainee = std::move(q);
  return make_stmt(pos, std::move(ex));
}

}  // namespace tandem::sql
