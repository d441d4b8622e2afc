#pragma once
// Execution of CREATE/ALTER/DROP ROLE, GRANT/REVOKE (privileges and role
// membership) and ALTER ... OWNER TO against the catalog, after
// check_privileges (privileges.hpp) allowed them. Coordinator thread.

#include <optional>
#include <string>

#include "catalog/catalog.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "planner/parser/ast.hpp"

namespace tandem::frontend {

// nullopt when `statement` is none of these.
std::optional<Result<ExecResult>> execute_role_statement(catalog::Catalog& catalog, const std::string& user,
                                                         const catalog::SearchPath& path,
                                                         const sql::Statement& statement);

bool is_role_statement(const sql::Statement& statement);

}  // namespace tandem::frontend
