// PREPARE, EXECUTE and DEALLOCATE as SQL statements. As in PostgreSQL, they
// share the session's namespace of prepared statements with the extended
// protocol's named statements (Parse/Close): PREPARE p is Parse of "p",
// EXECUTE p (args) binds the argument values (constant expressions,
// coerced to the parameter types by assignment rules) and executes it,
// DEALLOCATE p / ALL closes it / all of them.
#include "common/eval.hpp"
#include "common/func_resolve.hpp"
#include "frontend/adapter/adapter.hpp"
#include "frontend/adapter/catalog_ops.hpp"
#include "planner/binder/expr_binder.hpp"

namespace tandem::frontend {
using boost::asio::awaitable;

namespace {

Status undefined_statement(const std::string& name) {
  return Status::error(sqlstate::kUndefinedPreparedStatement, "prepared statement \"" + name + "\" does not exist");
}

// The parameter values of EXECUTE: each argument evaluated and coerced to
// its parameter's type.
Result<Row> execute_arguments(const sql::Execute& execute, const PreparedStatement& target, CancelToken& cancel) {
  if (execute.params.size() != target.param_types.size()) {
    return Status::error(sqlstate::kSyntaxError, "wrong number of parameters for prepared statement \"" +
                                                     execute.name + "\"")
        .with_detail("Expected " + std::to_string(target.param_types.size()) + " parameters but got " +
                     std::to_string(execute.params.size()) + ".");
  }
  EvalContext ctx;
  init_eval_context(ctx, cancel);
  std::vector<ColumnType> no_params;
  planner::Scope scope;
  planner::ExprBinder binder(scope, &no_params, 0);
  std::vector<Datum> values;
  RowArena arena;
  for (size_t i = 0; i < execute.params.size(); ++i) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr bound, binder.bind(execute.params[i]));
    if (!no_params.empty()) {
      return Status::error(sqlstate::kFeatureNotSupported, "parameters in EXECUTE arguments are not supported");
    }
    ColumnType type = target.param_types[i];
    if (type.id != TypeId::kUnknown) {
      ColumnType from = bound.type();
      auto cast = make_cast(std::move(bound), type, CastContext::kAssignment);
      if (!cast.ok()) {
        if (cast.status().sqlstate() != sqlstate::kCannotCoerce) return cast.status();
        return Status::error(sqlstate::kDatatypeMismatch, "parameter $" + std::to_string(i + 1) + " of type " +
                                                              format_type(from) + " cannot be coerced to the expected type " +
                                                              format_type(type))
            .with_hint("You will need to rewrite or cast the expression.");
      }
      bound = std::move(*cast);
    }
    TANDEM_ASSIGN_OR_RETURN(Datum d, eval(bound, {}, ctx));
    values.push_back(d);
  }
  return Row::pack(values);
}

}  // namespace

Status Adapter::prepare_sql_statement(Session& session, const sql::Statement& s, PreparedStatement& prepared) {
  if (auto* execute = s.as<sql::Execute>()) {
    auto it = session.statements().find(execute->name);
    if (it == session.statements().end()) return undefined_statement(execute->name);
    prepared.returns_rows = it->second->returns_rows;
    prepared.result_columns = it->second->result_columns;
  }
  // PREPARE and DEALLOCATE are checked when executed.
  return Status::ok();
}

awaitable<Result<ExecResult>> Adapter::execute_sql_prepared(Session& session, const PreparedStatement& statement,
                                                            CancelToken& cancel,
                                                            boost::asio::thread_pool& blocking_pool) {
  const sql::Statement& s = statement.parsed->statement;
  auto& statements = session.statements();
  ExecResult r;
  if (auto* prepare = s.as<sql::Prepare>()) {
    if (statements.count(prepare->name) != 0) {
      co_return Status::error(sqlstate::kDuplicatePreparedStatement,
                              "prepared statement \"" + prepare->name + "\" already exists");
    }
    std::vector<uint32_t> oids;
    for (const sql::TypeName& name : prepare->param_types) {
      auto type = column_type_of(name);
      if (!type.ok()) co_return type.status();
      oids.push_back(type_oid(type->id));
    }
    sql::ParsedStatement inner{*prepare->statement, statement.parsed->sql, statement.parsed->offset};
    auto prepared = this->prepare(session, std::move(inner), oids);
    if (!prepared.ok()) co_return prepared.status();
    statements[prepare->name] = std::move(*prepared);
    r.tag = "PREPARE";
    co_return r;
  }
  if (auto* deallocate = s.as<sql::Deallocate>()) {
    if (deallocate->all) {
      // The unnamed statement is the protocol's, not a prepared statement.
      for (auto it = statements.begin(); it != statements.end();) {
        it = it->first.empty() ? std::next(it) : statements.erase(it);
      }
      r.tag = "DEALLOCATE ALL";
      co_return r;
    }
    if (statements.erase(deallocate->name) == 0) co_return undefined_statement(deallocate->name);
    r.tag = "DEALLOCATE";
    co_return r;
  }
  const auto& execute = *s.as<sql::Execute>();
  auto it = statements.find(execute.name);
  if (it == statements.end()) co_return undefined_statement(execute.name);
  std::shared_ptr<const PreparedStatement> target = it->second;  // kept while it runs
  if (target->copy_in || target->copy_out) {
    co_return Status::error(sqlstate::kFeatureNotSupported, "EXECUTE of COPY is not supported");
  }
  auto params = execute_arguments(execute, *target, cancel);
  if (!params.ok()) co_return params.status();
  co_return co_await this->execute(session, *target, *params, cancel, blocking_pool);
}

}  // namespace tandem::frontend
