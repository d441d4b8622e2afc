#pragma once
// AST of session statements: SET/RESET/SHOW variable, transactions, DISCARD,
// cursors (FETCH/CLOSE) and prepared statements (EXECUTE/DEALLOCATE).
// DECLARE and PREPARE wrap a whole statement and live in ast_statement.hpp.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/parser/ast_expr.hpp"
#include "planner/parser/ast_option.hpp"

namespace tandem::sql {

// SET [SESSION|LOCAL] name {=|TO} value[, ...] | DEFAULT.
// SET TIME ZONE x sets "timezone" (LOCAL/DEFAULT -> to_default);
// SET NAMES x sets "client_encoding". Names are lower case.
struct SetVariable {
  bool local = false;
  std::string name;
  std::vector<OptionValue> values;
  bool to_default = false;
  bool operator==(const SetVariable&) const = default;
};
// RESET name | RESET ALL (all: name is empty).
struct ResetVariable {
  std::string name;
  bool all = false;
  bool operator==(const ResetVariable&) const = default;
};
// SHOW name | SHOW ALL. SHOW TIME ZONE -> "timezone",
// SHOW TRANSACTION ISOLATION LEVEL -> "transaction_isolation".
struct ShowVariable {
  std::string name;
  bool all = false;
  bool operator==(const ShowVariable&) const = default;
};

struct TransactionModes {
  // "" (unspecified), "serializable", "strict serializable",
  // "repeatable read", "read committed", "read uncommitted".
  std::string isolation_level;
  enum class Access : uint8_t { kUnspecified, kReadOnly, kReadWrite };
  Access access = Access::kUnspecified;
  bool operator==(const TransactionModes&) const = default;
};
// BEGIN [TRANSACTION|WORK] modes / START TRANSACTION modes.
struct StartTransaction {
  TransactionModes modes;
  bool operator==(const StartTransaction&) const = default;
};
// SET TRANSACTION modes (and SET SESSION CHARACTERISTICS AS TRANSACTION).
struct SetTransaction {
  TransactionModes modes;
  bool session_characteristics = false;
  bool operator==(const SetTransaction&) const = default;
};
// COMMIT / END [TRANSACTION|WORK].
struct Commit {
  bool operator==(const Commit&) const = default;
};
// ROLLBACK / ABORT [TRANSACTION|WORK].
struct Rollback {
  bool operator==(const Rollback&) const = default;
};
struct Discard {
  enum class Target : uint8_t { kAll, kTemp, kPlans, kSequences };
  Target target = Target::kAll;
  bool operator==(const Discard&) const = default;
};
// VACUUM / ANALYZE with any options and tables: accepted, nothing to do
// (storage compacts itself and plans use no statistics).
struct Maintenance {
  enum class Kind : uint8_t { kVacuum, kAnalyze };
  Kind kind = Kind::kVacuum;
  bool operator==(const Maintenance&) const = default;
};

// FETCH [FORWARD] [n|ALL] [FROM|IN] cursor [WITH (timeout = '1s')].
// No count means one row.
struct Fetch {
  std::string cursor;
  std::optional<int64_t> count;
  bool all = false;
  std::vector<Option> options;
  bool operator==(const Fetch&) const = default;
};
struct Close {
  std::string cursor;
  bool operator==(const Close&) const = default;
};
// EXECUTE name [(args)]
struct Execute {
  std::string name;
  std::vector<Expr> params;
  bool operator==(const Execute&) const = default;
};
// SAVEPOINT name / RELEASE [SAVEPOINT] name /
// ROLLBACK [WORK|TRANSACTION] TO [SAVEPOINT] name.
struct Savepoint {
  enum class Kind : uint8_t { kDefine, kRelease, kRollbackTo };
  Kind kind = Kind::kDefine;
  std::string name;
  bool operator==(const Savepoint&) const = default;
};
// DEALLOCATE [PREPARE] name | ALL.
struct Deallocate {
  std::string name;
  bool all = false;
  bool operator==(const Deallocate&) const = default;
};

}  // namespace tandem::sql
