#include "planner/timestamp_selection.hpp"

#include <algorithm>

#include "common/datetime.hpp"
#include "common/eval.hpp"
#include "common/func_resolve.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/hir/hir.hpp"

namespace tandem::planner {

IsolationLevel isolation_from_name(std::string_view name) {
  return name == "serializable" ? IsolationLevel::kSerializable : IsolationLevel::kStrictSerializable;
}

Result<TimestampDetermination> determine_timestamp(const std::vector<TimestampInput>& inputs,
                                                   IsolationLevel isolation, const QueryWhen& when,
                                                   Timestamp oracle_read_ts,
                                                   std::optional<Timestamp> transaction_ts) {
  TimestampDetermination d;
  for (const TimestampInput& in : inputs) {
    d.since = std::max(d.since, in.since);
    d.upper = std::min(d.upper, in.upper);
  }
  d.largest_not_in_advance_of_upper = d.upper == kMinTimestamp ? kMinTimestamp : d.upper - 1;
  Timestamp candidate = kMinTimestamp;
  if (when.kind == QueryWhen::Kind::kAtTimestamp) {
    candidate = when.ts;
  } else if (transaction_ts) {
    candidate = *transaction_ts;
  } else {
    candidate = d.since;
    if (when.kind == QueryWhen::Kind::kAtLeastTimestamp) candidate = std::max(candidate, when.ts);
    // Only a plain read may move up to the upper (Materialize's
    // QueryWhen::can_advance_to_upper); AS OF AT LEAST stays at its time.
    bool to_upper = isolation == IsolationLevel::kSerializable && !inputs.empty() &&
                    when.kind == QueryWhen::Kind::kImmediately;
    if (to_upper) candidate = std::max(candidate, d.largest_not_in_advance_of_upper);
    // The oracle orders strict serializable reads after every acknowledged
    // write; a read without inputs has no upper to read below, so it too
    // takes the oracle's time (mz_now() never goes backwards).
    bool to_oracle = when.kind == QueryWhen::Kind::kImmediately &&
                     (isolation == IsolationLevel::kStrictSerializable || inputs.empty());
    if (to_oracle) {
      d.oracle_read_ts = oracle_read_ts;
      candidate = std::max(candidate, oracle_read_ts);
    }
  }
  d.timestamp = candidate;
  if (d.since > candidate) {
    std::string frontiers;
    for (const TimestampInput& in : inputs) {
      frontiers += (frontiers.empty() ? "" : ", ") + std::string("Antichain { elements: [") +
                   std::to_string(in.since) + "] }";
    }
    return Status::error(sqlstate::kSnapshotTooOld, "Timestamp (" + std::to_string(candidate) +
                                                        ") is not valid for all inputs: [" + frontiers + "]");
  }
  return d;
}

Result<QueryWhen> evaluate_as_of(const sql::AsOf& as_of) {
  auto bad = [] {
    return Status::error(sqlstate::kInvalidParameterValue,
                         "AS OF or UP TO should be castable to a (non-null) mz_timestamp value");
  };
  Scope none;
  std::vector<ColumnType> params;
  ExprBinder binder(none, &params, hir::kParamBase);
  auto bound = binder.bind(as_of.time);
  if (!bound.ok()) return bound.status();
  if (!params.empty()) return bad();
  bool unmaterializable = false;
  std::function<void(const ScalarExpr&)> walk = [&](const ScalarExpr& e) {
    if (auto* v = std::get_if<CallVariadic>(&e.node)) {
      if (v->func == VariadicFunc::kNow || v->func == VariadicFunc::kMzNow) unmaterializable = true;
      for (const auto& a : v->args) walk(a);
    } else if (auto* u = std::get_if<CallUnary>(&e.node)) {
      walk(*u->arg);
    } else if (auto* b = std::get_if<CallBinary>(&e.node)) {
      walk(*b->lhs);
      walk(*b->rhs);
    } else if (auto* f = std::get_if<IfExpr>(&e.node)) {
      walk(*f->cond);
      walk(*f->then);
      walk(*f->els);
    }
  };
  walk(*bound);
  if (unmaterializable) {
    return Status::error(sqlstate::kFeatureNotSupported,
                         "calling an unmaterializable function in AS OF or UP TO not yet supported");
  }
  auto cast = make_cast(std::move(*bound), ColumnType{TypeId::kMzTimestamp, -1, false}, CastContext::kExplicit);
  if (!cast.ok()) return bad();
  EvalContext ctx;
  auto value = eval(*cast, {}, ctx);
  if (!value.ok()) return value.status();
  if (value->is_null()) return bad();
  QueryWhen when;
  when.kind = as_of.at_least ? QueryWhen::Kind::kAtLeastTimestamp : QueryWhen::Kind::kAtTimestamp;
  when.ts = value->as_mz_timestamp();
  return when;
}

std::string format_timestamp_ms(Timestamp ts) {
  constexpr int64_t kPostgresEpochUnixMillis = 946684800LL * 1000;
  std::string out = std::to_string(ts) + " (";
  std::string text;
  // Milliseconds since the Unix epoch as a PostgreSQL timestamp (µs since 2000).
  format_timestamp((static_cast<int64_t>(ts) - kPostgresEpochUnixMillis) * 1000, false, &text);
  // Always three fractional digits, as Materialize prints them.
  auto dot = text.find('.');
  if (dot == std::string::npos) {
    text += ".000";
  } else {
    text.resize(std::min(text.size(), dot + 4));
    while (text.size() < dot + 4) text += '0';
  }
  return out + text + ")";
}

}  // namespace tandem::planner
