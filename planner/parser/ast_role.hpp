#pragma once
// AST of roles and privileges: CREATE/ALTER/DROP ROLE, GRANT/REVOKE of
// privileges and of role membership, ALTER ... OWNER TO (Materialize's
// syntax, which is PostgreSQL's subset).

#include <optional>
#include <string>
#include <vector>

#include "planner/parser/ast_ddl.hpp"

namespace tandem::sql {

// [WITH] SUPERUSER|NOSUPERUSER LOGIN|NOLOGIN INHERIT|NOINHERIT; unset
// options are absent.
struct RoleOptions {
  std::optional<bool> superuser;
  std::optional<bool> login;
  std::optional<bool> inherit;
  bool operator==(const RoleOptions&) const = default;
};

// CREATE ROLE name [WITH] options
struct CreateRole {
  std::string name;
  RoleOptions options;
  bool operator==(const CreateRole&) const = default;
};

// ALTER ROLE name [WITH] options
struct AlterRole {
  std::string name;
  RoleOptions options;
  bool operator==(const AlterRole&) const = default;
};

// DROP ROLE [IF EXISTS] name, ...
struct DropRole {
  bool if_exists = false;
  std::vector<std::string> names;
  bool operator==(const DropRole&) const = default;
};

// GRANT privileges ON [TABLE] name, ... | SCHEMA s, ... | DATABASE d, ... |
//   CLUSTER c, ... | SYSTEM TO role, ...
// REVOKE privileges ON ... FROM role, ...
// `privileges` are upper-case names; empty means ALL [PRIVILEGES]. A role
// named PUBLIC (unquoted) is the PUBLIC pseudo-role.
struct GrantPrivileges {
  enum class Target : uint8_t { kTable, kSchema, kDatabase, kCluster, kSystem };
  bool grant = true;
  std::vector<std::string> privileges;
  Target target = Target::kTable;
  std::vector<ObjectName> objects;  // empty for SYSTEM
  std::vector<std::string> roles;
  bool operator==(const GrantPrivileges&) const = default;
};

// GRANT role, ... TO member, ... / REVOKE role, ... FROM member, ...
struct GrantRole {
  bool grant = true;
  std::vector<std::string> roles;
  std::vector<std::string> members;
  bool operator==(const GrantRole&) const = default;
};

// ALTER {TABLE|VIEW|MATERIALIZED VIEW|INDEX|CLUSTER|SCHEMA} name OWNER TO role
struct AlterOwner {
  ObjectType type = ObjectType::kTable;
  ObjectName name;
  std::string new_owner;
  bool operator==(const AlterOwner&) const = default;
};

}  // namespace tandem::sql
