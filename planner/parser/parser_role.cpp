// Parser: CREATE/ALTER/DROP ROLE, GRANT and REVOKE (privileges and role
// membership), ALTER ... OWNER TO.

#include "planner/parser/parser_impl.hpp"

namespace tandem::sql {
namespace {

// Words that may name a privilege in GRANT/REVOKE.
constexpr const char* kPrivilegeWords[] = {"select", "insert", "update", "delete", "usage",
                                           "create", "createrole", "createdb", "createcluster"};

bool is_privilege_word(const Token& t) {
  for (const char* w : kPrivilegeWords) {
    if (t.is_word(w)) return true;
  }
  return false;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

Result<RoleOptions> Parser::parse_role_options() {
  RoleOptions o;
  accept_word("with");
  auto set = [&](std::optional<bool>& field, bool value) -> Status {
    if (field.has_value()) {
      return Status::error(sqlstate::kSyntaxError, "conflicting or redundant options");
    }
    field = value;
    return Status::ok();
  };
  while (!at_end() && !peek_op(";")) {
    if (accept_word("superuser")) TANDEM_RETURN_IF_ERROR(set(o.superuser, true));
    else if (accept_word("nosuperuser")) TANDEM_RETURN_IF_ERROR(set(o.superuser, false));
    else if (accept_word("login")) TANDEM_RETURN_IF_ERROR(set(o.login, true));
    else if (accept_word("nologin")) TANDEM_RETURN_IF_ERROR(set(o.login, false));
    else if (accept_word("inherit")) TANDEM_RETURN_IF_ERROR(set(o.inherit, true));
    else if (accept_word("noinherit")) TANDEM_RETURN_IF_ERROR(set(o.inherit, false));
    else return error_here();
  }
  return o;
}

Result<Statement> Parser::parse_role_ddl(SourcePos pos, const char* verb) {
  advance();  // ROLE
  std::string v = verb;
  if (v == "drop") {
    DropRole d;
    d.if_exists = accept_words({"if", "exists"});
    TANDEM_ASSIGN_OR_RETURN(d.names, parse_identifier_list());
    return make_stmt(pos, std::move(d));
  }
  TANDEM_ASSIGN_OR_RETURN(std::string name, parse_identifier());
  TANDEM_ASSIGN_OR_RETURN(RoleOptions options, parse_role_options());
  if (v == "create") return make_stmt(pos, CreateRole{std::move(name), options});
  return make_stmt(pos, AlterRole{std::move(name), options});
}

Result<Statement> Parser::parse_grant() {
  SourcePos pos = here();
  bool grant = peek_word("grant");
  advance();  // GRANT / REVOKE
  // Privileges are followed by ON; role names by TO/FROM.
  size_t start = mark();
  bool privileges = false;
  for (size_t k = 0; !peek(k).is_word(grant ? "to" : "from") && k < 64; ++k) {
    if (peek(k).kind == TokenKind::kEof) break;
    if (peek(k).is_word("on")) {
      privileges = true;
      break;
    }
  }
  reset(start);
  if (!privileges) {
    GrantRole g;
    g.grant = grant;
    TANDEM_ASSIGN_OR_RETURN(g.roles, parse_identifier_list());
    TANDEM_RETURN_IF_ERROR(expect_word(grant ? "to" : "from"));
    TANDEM_ASSIGN_OR_RETURN(g.members, parse_identifier_list());
    return make_stmt(pos, std::move(g));
  }
  GrantPrivileges g;
  g.grant = grant;
  if (accept_word("all")) {
    accept_word("privileges");
  } else {
    do {
      if (!is_privilege_word(peek())) return error_here();
      g.privileges.push_back(upper(advance().text));
    } while (accept_op(","));
  }
  TANDEM_RETURN_IF_ERROR(expect_word("on"));
  using Target = GrantPrivileges::Target;
  if (accept_word("system")) {
    g.target = Target::kSystem;
  } else {
    if (accept_word("schema")) g.target = Target::kSchema;
    else if (accept_word("database")) g.target = Target::kDatabase;
    else if (accept_word("cluster")) g.target = Target::kCluster;
    else if (accept_word("table") || accept_word("view") || accept_words({"materialized", "view"})) g.target = Target::kTable;
    do {
      TANDEM_ASSIGN_OR_RETURN(ObjectName name, parse_object_name());
      g.objects.push_back(std::move(name));
    } while (accept_op(","));
  }
  TANDEM_RETURN_IF_ERROR(expect_word(grant ? "to" : "from"));
  TANDEM_ASSIGN_OR_RETURN(g.roles, parse_identifier_list());
  return make_stmt(pos, std::move(g));
}

}  // namespace tandem::sql
