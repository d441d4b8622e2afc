#include "frontend/adapter/session_statements.hpp"

#include <algorithm>

namespace tandem::frontend {
namespace {

// invalid_savepoint_specification (class 3B), used only here.
constexpr const char* kInvalidSavepointSpecification = "3B001";

ColumnType text_type() { return ColumnType{TypeId::kText, -1, true}; }

std::string option_text(const sql::OptionValue& v) { return v.text; }

ResultNotice warning(const char* code, const char* message) {
  return ResultNotice{ResultNotice::Severity::kWarning, Status::error(code, message)};
}

ExecResult command(std::string tag) {
  ExecResult r;
  r.tag = std::move(tag);
  return r;
}

void report_if(ExecResult& r, bool reported, const Session& session, std::string_view name) {
  if (!reported) return;
  const VarDefinition* def = SessionVars::find(name);
  r.parameter_changes.emplace_back(std::string(def->name), *session.vars().get(def->name));
}

Result<ExecResult> set_variable(Session& session, const sql::SetVariable& set) {
  ExecResult r = command("SET");
  if (set.to_default) {
    TANDEM_ASSIGN_OR_RETURN(bool reported, session.vars().reset(set.name));
    report_if(r, reported, session, set.name);
    return r;
  }
  std::string value;
  for (size_t i = 0; i < set.values.size(); ++i) {
    if (i > 0) value += ", ";
    value += option_text(set.values[i]);
  }
  TANDEM_ASSIGN_OR_RETURN(bool reported, session.vars().set(set.name, value));
  report_if(r, reported, session, set.name);
  return r;
}

Result<ExecResult> reset_variable(Session& session, const sql::ResetVariable& reset) {
  ExecResult r = command("RESET");
  if (reset.all) {
    for (const auto& [name, value, description] : session.vars().all()) {
      const VarDefinition* def = SessionVars::find(name);
      if (def->read_only) continue;
      TANDEM_ASSIGN_OR_RETURN(bool reported, session.vars().reset(name));
      report_if(r, reported, session, name);
    }
    return r;
  }
  TANDEM_ASSIGN_OR_RETURN(bool reported, session.vars().reset(reset.name));
  report_if(r, reported, session, reset.name);
  return r;
}

Result<ExecResult> show_variable(Session& session, const sql::ShowVariable& show) {
  ExecResult r = command("SHOW");
  r.returns_rows = true;
  if (show.all) {
    r.columns = {{"name", text_type()}, {"setting", text_type()}, {"description", text_type()}};
    for (const auto& [name, value, description] : session.vars().all()) {
      Datum d[] = {Datum::from_string(name), Datum::from_string(value), Datum::from_string(description)};
      r.rows.push_back(Row::pack(d));
    }
    return r;
  }
  TANDEM_ASSIGN_OR_RETURN(std::string value, session.vars().get(show.name));
  r.columns = {{std::string(SessionVars::find(show.name)->name), text_type()}};
  r.rows.push_back(Row::pack_one(Datum::from_string(value)));
  return r;
}

Status check_isolation(const sql::TransactionModes& modes) {
  if (modes.isolation_level.empty()) return Status::ok();
  SessionVars probe;
  auto s = probe.set("transaction_isolation", modes.isolation_level);
  return s.ok() ? Status::ok() : s.status();
}

// The level as transaction_isolation spells it (weaker PostgreSQL levels
// run as serializable).
std::string normalized_isolation(const std::string& level) {
  SessionVars probe;
  (void)probe.set("transaction_isolation", level);
  return *probe.get("transaction_isolation");
}

// SAVEPOINT, RELEASE and ROLLBACK TO over the block's pending writes: a
// savepoint copies them; ROLLBACK TO restores the copy (and recovers a
// failed block), keeping the savepoint; RELEASE forgets the savepoint and
// those defined after it. Cursors and the transaction's timestamp are not
// rolled back.
Result<ExecResult> savepoint(Session& session, const sql::Savepoint& s) {
  const char* verb = s.kind == sql::Savepoint::Kind::kDefine    ? "SAVEPOINT"
                     : s.kind == sql::Savepoint::Kind::kRelease ? "RELEASE SAVEPOINT"
                                                                : "ROLLBACK TO SAVEPOINT";
  if (session.transaction() == TransactionState::kIdle) {
    return Status::error(sqlstate::kNoActiveSqlTransaction,
                         std::string(verb) + " can only be used in transaction blocks");
  }
  auto& savepoints = session.savepoints();
  if (s.kind == sql::Savepoint::Kind::kDefine) {
    const PendingWrites* pending = session.pending_writes();
    savepoints.push_back({s.name, pending ? std::make_unique<PendingWrites>(*pending) : nullptr});
    return command("SAVEPOINT");
  }
  auto it = std::find_if(savepoints.rbegin(), savepoints.rend(), [&](const auto& p) { return p.name == s.name; });
  if (it == savepoints.rend()) {
    return Status::error(kInvalidSavepointSpecification, "savepoint \"" + s.name + "\" does not exist");
  }
  size_t index = static_cast<size_t>(savepoints.rend() - it) - 1;
  if (s.kind == sql::Savepoint::Kind::kRelease) {
    savepoints.erase(savepoints.begin() + static_cast<std::ptrdiff_t>(index), savepoints.end());
    return command("RELEASE");
  }
  savepoints.erase(savepoints.begin() + static_cast<std::ptrdiff_t>(index) + 1, savepoints.end());
  session.restore_pending_writes(savepoints[index].pending.get());
  return command("ROLLBACK");
}

}  // namespace

std::optional<Result<ExecResult>> execute_session_statement(Session& session, const sql::Statement& statement) {
  if (auto* s = statement.as<sql::SetVariable>()) return set_variable(session, *s);
  if (auto* s = statement.as<sql::ResetVariable>()) return reset_variable(session, *s);
  if (auto* s = statement.as<sql::ShowVariable>()) return show_variable(session, *s);
  if (auto* s = statement.as<sql::StartTransaction>()) {
    Status st = check_isolation(s->modes);
    if (!st.is_ok()) return Result<ExecResult>(st);
    ExecResult r = command("BEGIN");
    if (session.transaction() != TransactionState::kIdle) {
      r.notices.push_back(warning(sqlstate::kActiveSqlTransaction, "there is already a transaction in progress"));
    } else {
      session.set_transaction(TransactionState::kInBlock);
      if (!s->modes.isolation_level.empty()) {
        session.set_transaction_isolation(normalized_isolation(s->modes.isolation_level));
      }
      session.set_transaction_read_only(s->modes.access == sql::TransactionModes::Access::kReadOnly);
    }
    return r;
  }
  if (statement.as<sql::Commit>()) {
    ExecResult r = command(session.transaction() == TransactionState::kFailed ? "ROLLBACK" : "COMMIT");
    if (session.transaction() == TransactionState::kIdle) {
      r.notices.push_back(warning(sqlstate::kNoActiveSqlTransaction, "there is no transaction in progress"));
    }
    session.set_transaction(TransactionState::kIdle);
    return r;
  }
  if (statement.as<sql::Rollback>()) {
    ExecResult r = command("ROLLBACK");
    if (session.transaction() == TransactionState::kIdle) {
      r.notices.push_back(warning(sqlstate::kNoActiveSqlTransaction, "there is no transaction in progress"));
    }
    session.set_transaction(TransactionState::kIdle);
    return r;
  }
  if (auto* s = statement.as<sql::SetTransaction>()) {
    Status st = check_isolation(s->modes);
    if (!st.is_ok()) return Result<ExecResult>(st);
    if (s->session_characteristics && !s->modes.isolation_level.empty()) {
      auto set = session.vars().set("transaction_isolation", s->modes.isolation_level);
      if (!set.ok()) return Result<ExecResult>(set.status());
    } else if (!s->modes.isolation_level.empty() && session.transaction() == TransactionState::kInBlock) {
      // Before the transaction's first read, as PostgreSQL requires.
      if (session.transaction_ts()) {
        return Result<ExecResult>(Status::error(sqlstate::kActiveSqlTransaction,
                                                "SET TRANSACTION ISOLATION LEVEL must be called before any query"));
      }
      session.set_transaction_isolation(normalized_isolation(s->modes.isolation_level));
    }
    if (!s->session_characteristics && s->modes.access != sql::TransactionModes::Access::kUnspecified &&
        session.transaction() == TransactionState::kInBlock) {
      const bool read_only = s->modes.access == sql::TransactionModes::Access::kReadOnly;
      // PostgreSQL: a transaction that has read may not become read-write.
      if (!read_only && session.transaction_read_only() && session.transaction_ts()) {
        return Result<ExecResult>(Status::error(sqlstate::kActiveSqlTransaction,
                                                "transaction read-write mode must be set before any query"));
      }
      session.set_transaction_read_only(read_only);
    }
    return command("SET");
  }
  if (auto* s = statement.as<sql::Savepoint>()) return savepoint(session, *s);
  if (auto* s = statement.as<sql::Discard>()) {
    if (s->target == sql::Discard::Target::kAll) {
      if (session.transaction() != TransactionState::kIdle) {
        return Result<ExecResult>(
            Status::error(sqlstate::kActiveSqlTransaction, "DISCARD ALL cannot run inside a transaction block"));
      }
      session.statements().clear();
      session.portals().clear();
      auto reset = reset_variable(session, sql::ResetVariable{"", true});
      if (!reset.ok()) return reset;
      reset->tag = "DISCARD ALL";
      return reset;
    }
    const char* tags[] = {"DISCARD ALL", "DISCARD TEMP", "DISCARD PLANS", "DISCARD SEQUENCES"};
    return command(tags[static_cast<int>(s->target)]);
  }
  if (auto* s = statement.as<sql::Maintenance>()) {
    const bool vacuum = s->kind == sql::Maintenance::Kind::kVacuum;
    // PostgreSQL: VACUUM cannot run inside a transaction block.
    if (vacuum && session.transaction() != TransactionState::kIdle) {
      return Result<ExecResult>(
          Status::error(sqlstate::kActiveSqlTransaction, "VACUUM cannot run inside a transaction block"));
    }
    ExecResult r = command(vacuum ? "VACUUM" : "ANALYZE");
    r.notices.push_back(ResultNotice{ResultNotice::Severity::kNotice,
                                     Status::error(sqlstate::kSuccessfulCompletion,
                                                   vacuum ? "VACUUM does nothing in tandem: storage compacts itself"
                                                          : "ANALYZE does nothing in tandem: plans use no statistics")});
    return r;
  }
  return std::nullopt;
}

std::optional<std::vector<ResultColumn>> describe_session_statement(const sql::Statement& statement,
                                                                    bool* returns_rows) {
  *returns_rows = false;
  if (auto* show = statement.as<sql::ShowVariable>()) {
    *returns_rows = true;
    if (show->all) return std::vector<ResultColumn>{{"name", text_type()}, {"setting", text_type()},
                                                    {"description", text_type()}};
    const VarDefinition* def = SessionVars::find(show->name);
    return std::vector<ResultColumn>{{def ? std::string(def->name) : show->name, text_type()}};
  }
  if (statement.as<sql::SetVariable>() || statement.as<sql::ResetVariable>() ||
      statement.as<sql::StartTransaction>() || statement.as<sql::Commit>() || statement.as<sql::Rollback>() ||
      statement.as<sql::SetTransaction>() || statement.as<sql::Discard>() || statement.as<sql::Savepoint>() ||
      statement.as<sql::Maintenance>()) {
    return std::vector<ResultColumn>{};
  }
  return std::nullopt;
}

}  // namespace tandem::frontend
