// Parser: statement dispatch on the leading keyword, and the session,
// transaction, cursor and prepared-statement families.

#include <cctype>

#include "planner/parser/parser_impl.hpp"

namespace tandem::sql {
namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Leading keywords of statements tandem recognises but does not support.
constexpr const char* kUnsupportedLeaders[] = {
    "reindex", "listen", "notify",
    "unlisten", "lock", "cluster", "checkpoint", "comment", "security", "load", "import",
    "call", "do", "merge", "pragma", "attach", "detach", "move",
    "refresh", "reassign", "validate", "raise", "replace", "upsert",
};

}  // namespace

Statement Parser::unsupported(std::string what, SourcePos pos) {
  while (!at_end()) advance();
  return make_stmt(pos, Unsupported{std::move(what)});
}

Result<Statement> Parser::parse_statement() {
  DepthGuard guard(this);
  TANDEM_RETURN_IF_ERROR(guard.status());
  const Token& t = peek();
  SourcePos pos = here();
  if (peek_query_start() || t.is_op("(")) {
    TANDEM_ASSIGN_OR_RETURN(Query q, parse_query());
    return make_stmt(pos, SelectStatement{std::move(q)});
  }
  if (t.kind != TokenKind::kWord) return error_here();
  const std::string w = t.text;
  if (w == "set") return parse_set();
  if (w == "reset") return parse_reset();
  if (w == "show") return parse_show();
  if (w == "begin" || w == "start") return parse_begin();
  if (w == "commit" || w == "end") {
    advance();
    if (!accept_word("transaction")) accept_word("work");
    if (peek_word("and")) return unsupported(upper(w) + " AND CHAIN", pos);
    return make_stmt(pos, Commit{});
  }
  if (w == "rollback" || w == "abort") {
    advance();
    if (!accept_word("transaction")) accept_word("work");
    if (accept_word("to")) {
      accept_word("savepoint");
      TANDEM_ASSIGN_OR_RETURN(std::string name, parse_identifier());
      return make_stmt(pos, Savepoint{Savepoint::Kind::kRollbackTo, std::move(name)});
    }
    if (peek_word("and")) return unsupported(upper(w) + " AND CHAIN", pos);
    return make_stmt(pos, Rollback{});
  }
  if (w == "vacuum" || w == "analyze" || w == "analyse") {
    while (!at_end()) advance();
    return make_stmt(pos, Maintenance{w == "vacuum" ? Maintenance::Kind::kVacuum : Maintenance::Kind::kAnalyze});
  }
  if (w == "create") return parse_create();
  if (w == "drop") return parse_drop();
  if (w == "alter") return parse_alter();
  if (w == "insert") return parse_insert();
  if (w == "update") return parse_update();
  if (w == "delete") return parse_delete();
  if (w == "truncate") return parse_truncate();
  if (w == "copy") return parse_copy();
  if (w == "subscribe") {
    TANDEM_ASSIGN_OR_RETURN(Subscribe s, parse_subscribe_body());
    return make_stmt(pos, std::move(s));
  }
  if (w == "explain") return parse_explain();
  if (w == "declare") return parse_declare();
  if (w == "fetch") return parse_fetch();
  if (w == "close") {
    advance();
    TANDEM_ASSIGN_OR_RETURN(std::string name, parse_identifier());
    return make_stmt(pos, Close{std::move(name)});
  }
  if (w == "prepare") return parse_prepare();
  if (w == "execute") return parse_execute();
  if (w == "deallocate") return parse_deallocate();
  if (w == "savepoint" || w == "release") {
    advance();
    if (w == "release") accept_word("savepoint");
    TANDEM_ASSIGN_OR_RETURN(std::string name, parse_identifier());
    return make_stmt(pos, Savepoint{w == "release" ? Savepoint::Kind::kRelease : Savepoint::Kind::kDefine,
                                    std::move(name)});
  }
  if (w == "discard") return parse_discard();
  if (w == "grant" || w == "revoke") return parse_grant();
  for (const char* leader : kUnsupportedLeaders) {
    if (w == leader) return unsupported(w == "replace" ? "REPLACE INTO" : upper(w), pos);
  }
  return error_here();
}

Result<Statement> Parser::parse_set() {
  SourcePos pos = here();
  advance();  // SET
  SetVariable set;
  if (accept_word("local")) set.local = true;
  else if (peek_word("session") && !peek_op("=", 1) && !peek_word("to", 1)) advance();
  if (accept_word("transaction")) {
    TANDEM_ASSIGN_OR_RETURN(TransactionModes modes, parse_transaction_modes());
    return make_stmt(pos, SetTransaction{std::move(modes), false});
  }
  if (accept_words({"characteristics", "as", "transaction"})) {
    TANDEM_ASSIGN_OR_RETURN(TransactionModes modes, parse_transaction_modes());
    return make_stmt(pos, SetTransaction{std::move(modes), true});
  }
  if (accept_words({"time", "zone"})) {
    set.name = "timezone";
    if (accept_word("local") || accept_word("default")) {
      set.to_default = true;
    } else {
      TANDEM_ASSIGN_OR_RETURN(OptionValue v, parse_option_value());
      set.values.push_back(std::move(v));
    }
    return make_stmt(pos, std::move(set));
  }
  if (accept_word("names")) {
    set.name = "client_encoding";
    if (accept_word("default")) {
      set.to_default = true;
    } else {
      TANDEM_ASSIGN_OR_RETURN(OptionValue v, parse_option_value());
      set.values.push_back(std::move(v));
    }
    return make_stmt(pos, std::move(set));
  }
  if (peek_words({"session", "authorization"}) || peek_word("role")) {
    return unsupported(peek_word("role") ? "SET ROLE" : "SET SESSION AUTHORIZATION", pos);
  }
  TANDEM_ASSIGN_OR_RETURN(set.name, parse_column_label());
  while (accept_op(".")) {
    TANDEM_ASSIGN_OR_RETURN(std::string part, parse_column_label());
    set.name += "." + part;
  }
  if (!accept_op("=") && !accept_word("to")) return error_here();
  TANDEM_ASSIGN_OR_RETURN(set.values, parse_set_values(&set.to_default));
  return make_stmt(pos, std::move(set));
}

Result<Statement> Parser::parse_reset() {
  SourcePos pos = here();
  advance();  // RESET
  ResetVariable r;
  if (accept_word("all")) {
    r.all = true;
  } else if (accept_words({"time", "zone"})) {
    r.name = "timezone";
  } else {
    TANDEM_ASSIGN_OR_RETURN(r.name, parse_column_label());
    while (accept_op(".")) {
      TANDEM_ASSIGN_OR_RETURN(std::string part, parse_column_label());
      r.name += "." + part;
    }
  }
  return make_stmt(pos, std::move(r));
}

Result<Statement> Parser::parse_show() {
  SourcePos pos = here();
  bool handled = false;
  TANDEM_ASSIGN_OR_RETURN(Statement objects, parse_show_objects(&handled));
  if (handled) return objects;
  advance();  // SHOW
  ShowVariable show;
  if (accept_word("all")) {
    show.all = true;
  } else if (accept_words({"time", "zone"})) {
    show.name = "timezone";
  } else if (accept_words({"transaction", "isolation", "level"})) {
    show.name = "transaction_isolation";
  } else {
    TANDEM_ASSIGN_OR_RETURN(show.name, parse_identifier());
    while (accept_op(".")) {
      TANDEM_ASSIGN_OR_RETURN(std::string part, parse_column_label());
      show.name += "." + part;
    }
  }
  return make_stmt(pos, std::move(show));
}

Result<TransactionModes> Parser::parse_transaction_modes() {
  TransactionModes modes;
  bool first = true;
  while (true) {
    size_t m = mark();
    if (!first) accept_op(",");
    if (accept_words({"isolation", "level"})) {
      if (accept_word("serializable")) modes.isolation_level = "serializable";
      else if (accept_words({"strict", "serializable"})) modes.isolation_level = "strict serializable";
      else if (accept_words({"repeatable", "read"})) modes.isolation_level = "repeatable read";
      else if (accept_words({"read", "committed"})) modes.isolation_level = "read committed";
      else if (accept_words({"read", "uncommitted"})) modes.isolation_level = "read uncommitted";
      else return error_here();
    } else if (accept_words({"read", "only"})) {
      modes.access = TransactionModes::Access::kReadOnly;
    } else if (accept_words({"read", "write"})) {
      modes.access = TransactionModes::Access::kReadWrite;
    } else {
      reset(m);
      break;
    }
    first = false;
  }
  return modes;
}

Result<Statement> Parser::parse_begin() {
  SourcePos pos = here();
  if (advance().text == "start") {
    TANDEM_RETURN_IF_ERROR(expect_word("transaction"));
  } else if (!accept_word("transaction")) {
    accept_word("work");
  }
  TANDEM_ASSIGN_OR_RETURN(TransactionModes modes, parse_transaction_modes());
  return make_stmt(pos, StartTransaction{std::move(modes)});
}

Result<Statement> Parser::parse_discard() {
  SourcePos pos = here();
  advance();  // DISCARD
  Discard d;
  if (accept_word("all")) d.target = Discard::Target::kAll;
  else if (accept_word("temp") || accept_word("temporary")) d.target = Discard::Target::kTemp;
  else if (accept_word("plans")) d.target = Discard::Target::kPlans;
  else if (accept_word("sequences")) d.target = Discard::Target::kSequences;
  else return error_here();
  return make_stmt(pos, d);
}

Result<Statement> Parser::parse_declare() {
  SourcePos pos = here();
  advance();  // DECLARE
  Declare d;
  TANDEM_ASSIGN_OR_RETURN(d.name, parse_identifier());
  accept_words({"no", "scroll"});
  TANDEM_RETURN_IF_ERROR(expect_word("cursor"));
  if (accept_words({"with", "hold"})) d.hold = true;
  else accept_words({"without", "hold"});
  TANDEM_RETURN_IF_ERROR(expect_word("for"));
  SourcePos inner_pos = here();
  if (peek_word("subscribe")) {
    TANDEM_ASSIGN_OR_RETURN(Subscribe s, parse_subscribe_body());
    d.statement = make_stmt(inner_pos, std::move(s));
  } else {
    TANDEM_ASSIGN_OR_RETURN(Query q, parse_query());
    d.statement = make_stmt(inner_pos, SelectStatement{std::move(q)});
  }
  return make_stmt(pos, std::move(d));
}

Result<Statement> Parser::parse_fetch() {
  SourcePos pos = here();
  advance();  // FETCH
  Fetch f;
  accept_word("forward");
  if (peek().kind == TokenKind::kNumber) {
    TANDEM_ASSIGN_OR_RETURN(int64_t n, parse_int_literal());
    f.count = n;
  } else if (accept_word("all")) {
    f.all = true;
  } else if (accept_word("next")) {
    f.count = 1;
  }
  if (!accept_word("from")) accept_word("in");
  TANDEM_ASSIGN_OR_RETURN(f.cursor, parse_identifier());
  if (accept_word("with")) {
    TANDEM_ASSIGN_OR_RETURN(f.options, parse_paren_options(false));
  }
  return make_stmt(pos, std::move(f));
}

Result<Statement> Parser::parse_prepare() {
  SourcePos pos = here();
  advance();  // PREPARE
  Prepare p;
  TANDEM_ASSIGN_OR_RETURN(p.name, parse_identifier());
  if (accept_op("(")) {
    do {
      TANDEM_ASSIGN_OR_RETURN(TypeName t, parse_type_name());
      p.param_types.push_back(std::move(t));
    } while (accept_op(","));
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
  }
  TANDEM_RETURN_IF_ERROR(expect_word("as"));
  TANDEM_ASSIGN_OR_RETURN(Statement inner, parse_statement());
  p.statement = std::move(inner);
  return make_stmt(pos, std::move(p));
}

Result<Statement> Parser::parse_execute() {
  SourcePos pos = here();
  advance();  // EXECUTE
  Execute e;
  TANDEM_ASSIGN_OR_RETURN(e.name, parse_identifier());
  if (accept_op("(")) {
    TANDEM_ASSIGN_OR_RETURN(e.params, parse_expr_list());
    TANDEM_RETURN_IF_ERROR(expect_op(")"));
  }
  return make_stmt(pos, std::move(e));
}

Result<Statement> Parser::parse_deallocate() {
  SourcePos pos = here();
  advance();  // DEALLOCATE
  accept_word("prepare");
  Deallocate d;
  if (accept_word("all")) {
    d.all = true;
  } else {
    TANDEM_ASSIGN_OR_RETURN(d.name, parse_identifier());
  }
  return make_stmt(pos, std::move(d));
}

}  // namespace tandem::sql
