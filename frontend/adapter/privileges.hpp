#pragma once
// Privilege checks: whether the session's role may run a statement, decided
// from the statement's AST and the catalog snapshot it runs against, before
// anything executes (Materialize's rbac::check_plan, at the same point for
// every path: fast-path and prepared reads, peek dataflows, writes, COPY,
// SUBSCRIBE, DDL, the HTTP API's sessions).
//
// Rules (Materialize's; catalog/access_control.hpp has the model):
//   reads       SELECT on every relation the query names (not on what a
//               view reads: a view's owner must hold SELECT on the view's
//               inputs, checked recursively with the owner's privileges),
//               USAGE on their schemas, USAGE on the active cluster.
//   INSERT      INSERT on the table (+ reads of its query); UPDATE/DELETE:
//               UPDATE/DELETE and SELECT on the table (+ reads of WHERE);
//               TRUNCATE: DELETE; COPY FROM: INSERT; COPY TO: reads.
//   SUBSCRIBE   reads of its query or relation.
//   CREATE      CREATE on the target schema; indexes and materialized views
//               also CREATE on their cluster; an index needs ownership of its
//               relation; a materialized view the reads of its query.
//               CREATE CLUSTER: CREATECLUSTER on the system.
//   DROP/ALTER  ownership of each object (CASCADE: of every dependent too).
//   roles       CREATE/ALTER/DROP ROLE and GRANT/REVOKE role: CREATEROLE
//               (SUPERUSER roles: superuser only). GRANT/REVOKE privileges:
//               ownership of the object; ON SYSTEM: superuser.
//   ALTER SYSTEM  superuser.
// A superuser passes every check. Errors are 42501: "permission denied for
// TABLE "materialize.public.t"" with the detail "The 'alice' role needs
// SELECT privileges on TABLE ...", or "must be owner of TABLE ...".
//
// Threading: pure functions over an immutable snapshot.

#include <string>

#include "catalog/catalog_snapshot.hpp"
#include "common/status.hpp"
#include "planner/parser/ast.hpp"

namespace tandem::frontend {

// The role `user` runs as: its id, or an id no object names (such a user,
// whose role was dropped, holds only what PUBLIC holds).
catalog::RoleId session_role(const catalog::CatalogSnapshot& snapshot, const std::string& user);
bool is_superuser(const catalog::CatalogSnapshot& snapshot, const std::string& user);

// OK when `user` may run `statement` with `path` and active `cluster`.
Status check_privileges(const catalog::CatalogSnapshot& snapshot, const std::string& user,
                        const catalog::SearchPath& path, const std::string& cluster, const sql::Statement& statement);

}  // namespace tandem::frontend
