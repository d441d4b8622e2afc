#include "planner/binder/expr_binder.hpp"

#include <algorithm>
#include <charconv>

#include "common/func_resolve.hpp"
#include "common/value_io.hpp"

namespace tandem::planner {
namespace {

Status at(Status s, const sql::Expr& e) {
  if (s.position() == 0) s.set_position(static_cast<int>(e.pos.offset) + 1);
  return s;
}

Status not_supported(std::string what, const sql::Expr& e) {
  return at(Status::error(sqlstate::kFeatureNotSupported, std::move(what) + " not supported yet"), e);
}

std::string type_name_text(const sql::TypeName& t) {
  std::string s;
  for (size_t i = 0; i < t.name.size(); ++i) {
    if (i > 0) s += ".";
    s += t.name[i];
  }
  return s;
}

Result<ColumnType> resolve_type(const sql::TypeName& t) {
  std::string name = t.name.size() == 2 && (t.name[0] == "pg_catalog" || t.name[0] == "mz_catalog") ? t.name[1]
                                                                                                      : type_name_text(t);
  // PostgreSQL ignores the declared number of dimensions: int[][] is int[].
  if (t.array_dims > 0) name += "[]";
  return type_from_name(name, t.modifiers);
}

}  // namespace

std::string_view internal_type_name(TypeId id) {
  switch (id) {
    case TypeId::kUnknown: return "unknown";
    case TypeId::kBool: return "bool";
    case TypeId::kInt2: return "int2";
    case TypeId::kInt4: return "int4";
    case TypeId::kInt8: return "int8";
    case TypeId::kFloat4: return "float4";
    case TypeId::kFloat8: return "float8";
    case TypeId::kNumeric: return "numeric";
    case TypeId::kText: return "text";
    case TypeId::kVarchar: return "varchar";
    case TypeId::kBpchar: return "bpchar";
    case TypeId::kBytea: return "bytea";
    case TypeId::kDate: return "date";
    case TypeId::kTime: return "time";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kTimestampTz: return "timestamptz";
    case TypeId::kInterval: return "interval";
    case TypeId::kOid: return "oid";
    case TypeId::kMzTimestamp: return "mz_timestamp";
    case TypeId::kJson: return "json";
    case TypeId::kJsonb: return "jsonb";
    default: break;
  }
  if (is_array_type(id)) {
    // pg_type.typname of an array type: "_" + the element's.
    static const auto names = [] {
      std::vector<std::string> v(kNumTypeIds);
      for (int t = static_cast<int>(TypeId::kBoolArray); t < kNumTypeIds; ++t) {
        v[t] = "_" + std::string(internal_type_name(array_element_type(static_cast<TypeId>(t))));
      }
      return v;
    }();
    return names[static_cast<int>(id)];
  }
  return "unknown";
}

ExprBinder::ExprBinder(const Scope& scope, std::vector<ColumnType>* param_types, size_t param_base)
    : scope_(scope), param_types_(param_types), param_base_(param_base) {}

Result<ScalarExpr> ExprBinder::bind(const sql::Expr& expr) {
  if (hook_) {
    if (auto taken = hook_(expr, *this)) {
      if (!taken->ok()) return at(taken->status(), expr);
      return settle_parameters(std::move(**taken));
    }
  }
  auto r = bind_node(expr);
  if (!r.ok()) return at(r.status(), expr);
  return settle_parameters(fold_strict_null_call(std::move(*r)));
}

Result<ScalarExpr> ExprBinder::bind_condition(const sql::Expr& expr, std::string_view context) {
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, bind(expr));
  if (e.type().id == TypeId::kBool) return e;
  if (e.type().id == TypeId::kUnknown) {
    auto cast = make_cast(std::move(e), ColumnType{TypeId::kBool}, CastContext::kImplicit);
    if (!cast.ok()) return at(cast.status(), expr);
    return settle_parameters(std::move(*cast));
  }
  return at(Status::error(sqlstate::kDatatypeMismatch, "argument of " + std::string(context) +
                                                           " must be type boolean, not type " +
                                                           std::string(type_name(e.type().id))),
            expr);
}

Result<ScalarExpr> ExprBinder::resolve_unknown_as_text(ScalarExpr expr) {
  if (expr.type().id != TypeId::kUnknown) return expr;
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr cast, make_cast(std::move(expr), ColumnType{TypeId::kText}, CastContext::kImplicit));
  return settle_parameters(std::move(cast));
}

bool ExprBinder::is_parameter(const ScalarExpr& e, size_t* index) const {
  auto* col = std::get_if<ColumnRef>(&e.node);
  if (col == nullptr || col->index < param_base_) return false;
  *index = col->index - param_base_;
  return *index < param_types_->size();
}

// The resolver coerces an unknown-typed parameter like an unknown literal,
// wrapping it in a cast; such a cast fixes the parameter's type.
ScalarExpr ExprBinder::settle_parameters(ScalarExpr expr) {
  struct Walker {
    ExprBinder* self;
    void walk(ScalarExpr& e) {
      if (auto* u = std::get_if<CallUnary>(&e.node)) {
        size_t i;
        if ((u->func == UnaryFunc::kCast || u->func == UnaryFunc::kCastAssign) && self->is_parameter(*u->arg, &i) &&
            u->arg->type().id == TypeId::kUnknown && (*self->param_types_)[i].id == TypeId::kUnknown) {
          ColumnType t = u->type;
          (*self->param_types_)[i] = ColumnType{t.id, t.typmod, true};
          e = ScalarExpr::column(self->param_base_ + i, ColumnType{t.id, t.typmod, true});
          return;
        }
        walk(*u->arg);
      } else if (auto* b = std::get_if<CallBinary>(&e.node)) {
        walk(*b->lhs);
        walk(*b->rhs);
      } else if (auto* v = std::get_if<CallVariadic>(&e.node)) {
        for (auto& a : v->args) walk(a);
      } else if (auto* f = std::get_if<IfExpr>(&e.node)) {
        walk(*f->cond);
        walk(*f->then);
        walk(*f->els);
      } else if (auto* c = std::get_if<ColumnRef>(&e.node)) {
        // A parameter bound before its type was settled elsewhere.
        size_t i;
        if (self->is_parameter(e, &i) && c->type.id == TypeId::kUnknown) c->type = (*self->param_types_)[i];
      }
    }
  };
  Walker{this}.walk(expr);
  return expr;
}

bool ExprBinder::may_block(const ScalarExpr& expr) {
  if (auto* u = std::get_if<CallUnary>(&expr.node)) return u->func == UnaryFunc::kPgSleep || may_block(*u->arg);
  if (auto* b = std::get_if<CallBinary>(&expr.node)) return may_block(*b->lhs) || may_block(*b->rhs);
  if (auto* v = std::get_if<CallVariadic>(&expr.node)) {
    for (const auto& a : v->args) {
      if (may_block(a)) return true;
    }
    return false;
  }
  if (auto* f = std::get_if<IfExpr>(&expr.node)) return may_block(*f->cond) || may_block(*f->then) || may_block(*f->els);
  return false;
}

std::string ExprBinder::column_name(const sql::Expr& expr) {
  if (auto* c = expr.as<sql::ColumnRef>()) return c->names.back();
  if (auto* f = expr.as<sql::FunctionCall>()) return f->name.back();
  if (auto* c = expr.as<sql::Cast>()) {
    // PostgreSQL's FigureColname: a cast keeps a strong inner name (a
    // column's, a function's) but replaces a weak one (another cast's type).
    // A name is weak when it is only a type's (a cast of something
    // nameless, a typed literal), CASE's or a boolean literal's.
    const sql::Expr* arg = c->expr.get();
    while (auto* nested = arg->as<sql::Cast>()) arg = nested->expr.get();
    bool weak = arg->as<sql::TypedLiteral>() || arg->as<sql::Case>() || arg->as<sql::BoolLiteral>();
    std::string inner = column_name(*arg);
    if (inner != "?column?" && !weak) return inner;
    auto t = resolve_type(c->type);
    return t.ok() ? std::string(internal_type_name(t->id)) : c->type.name.back();
  }
  if (auto* t = expr.as<sql::TypedLiteral>()) {
    auto type = resolve_type(t->type);
    return type.ok() ? std::string(internal_type_name(type->id)) : t->type.name.back();
  }
  if (expr.as<sql::BoolLiteral>()) return "bool";
  if (expr.as<sql::Case>()) return "case";
  if (expr.as<sql::Exists>()) return "exists";
  if (expr.as<sql::ArrayExpr>() || expr.as<sql::ArraySubquery>()) return "array";
  if (expr.as<sql::RowExpr>()) return "row";
  if (auto* s = expr.as<sql::Subscript>()) return column_name(*s->expr);
  if (auto* f = expr.as<sql::FieldAccess>()) return f->field;
  if (auto* q = expr.as<sql::Subquery>()) {
    // A scalar subquery is named after its one column (PostgreSQL's
    // FigureColname), looking through parenthesised queries.
    const sql::SetExpr* body = &q->query->body;
    while (auto* inner = std::get_if<sql::Box<sql::Query>>(&body->node)) body = &(*inner)->body;
    if (auto* select = std::get_if<sql::Select>(&body->node); select && select->projection.size() == 1) {
      const sql::SelectItem& item = select->projection.front();
      if (item.alias) return *item.alias;
      if (!item.expr.as<sql::Star>()) return column_name(item.expr);
    }
  }
  return "?column?";
}

Result<ScalarExpr> ExprBinder::operator_call(std::string_view op, std::vector<ScalarExpr> args) {
  return resolve_operator(op, std::move(args));
}

Result<ScalarExpr> ExprBinder::bind_node(const sql::Expr& expr) {
  return std::visit(
      [&](const auto& node) -> Result<ScalarExpr> {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, sql::NullLiteral>) {
          return ScalarExpr::null(ColumnType{TypeId::kUnknown});
        } else if constexpr (std::is_same_v<T, sql::BoolLiteral>) {
          return ScalarExpr::literal(Datum::from_bool(node.value), ColumnType{TypeId::kBool, -1, false});
        } else if constexpr (std::is_same_v<T, sql::NumberLiteral>) {
          return bind_number(node);
        } else if constexpr (std::is_same_v<T, sql::StringLiteral>) {
          return ScalarExpr::literal(Datum::from_string(node.value), ColumnType{TypeId::kUnknown, -1, false});
        } else if constexpr (std::is_same_v<T, sql::TypedLiteral>) {
          return bind_typed_literal(node);
        } else if constexpr (std::is_same_v<T, sql::Parameter>) {
          return bind_parameter(node);
        } else if constexpr (std::is_same_v<T, sql::ColumnRef>) {
          return bind_column(node, expr);
        } else if constexpr (std::is_same_v<T, sql::Star>) {
          return Status::error(sqlstate::kSyntaxError, "SELECT * with no tables specified is not valid");
        } else if constexpr (std::is_same_v<T, sql::UnaryOp>) {
          return bind_unary(node);
        } else if constexpr (std::is_same_v<T, sql::BinaryOp>) {
          return bind_binary(node);
        } else if constexpr (std::is_same_v<T, sql::Cast>) {
          return bind_cast(node);
        } else if constexpr (std::is_same_v<T, sql::FunctionCall>) {
          return bind_call(node, expr);
        } else if constexpr (std::is_same_v<T, sql::Case>) {
          return bind_case(node);
        } else if constexpr (std::is_same_v<T, sql::IsTest>) {
          return bind_is(node);
        } else if constexpr (std::is_same_v<T, sql::IsDistinctFrom>) {
          TANDEM_ASSIGN_OR_RETURN(ScalarExpr l, bind(*node.left));
          TANDEM_ASSIGN_OR_RETURN(ScalarExpr r, bind(*node.right));
          // Resolve as `=` to unify the operand types, then swap the function.
          TANDEM_ASSIGN_OR_RETURN(ScalarExpr eq, operator_call("=", {std::move(l), std::move(r)}));
          auto& call = std::get<CallBinary>(eq.node);
          return ScalarExpr::binary(node.negated ? BinaryFunc::kIsNotDistinctFrom : BinaryFunc::kIsDistinctFrom,
                                    std::move(*call.lhs), std::move(*call.rhs), ColumnType{TypeId::kBool, -1, false});
        } else if constexpr (std::is_same_v<T, sql::Between>) {
          return bind_between(node);
        } else if constexpr (std::is_same_v<T, sql::InList>) {
          return bind_in_list(node);
        } else if constexpr (std::is_same_v<T, sql::Like>) {
          return bind_like(node);
        } else if constexpr (std::is_same_v<T, sql::Quantified>) {
          if (!node.array) return not_supported("subqueries are", expr);
          TANDEM_ASSIGN_OR_RETURN(ScalarExpr x, bind(*node.left));
          TANDEM_ASSIGN_OR_RETURN(ScalarExpr array, bind(*node.array));
          return make_quantified(node.op, node.all, std::move(x), std::move(array));
        } else if constexpr (std::is_same_v<T, sql::ArrayExpr>) {
          std::vector<ScalarExpr> elements;
          for (const auto& e : node.elements) {
            TANDEM_ASSIGN_OR_RETURN(ScalarExpr bound, bind(e));
            elements.push_back(std::move(bound));
          }
          return make_array(std::move(elements));
        } else if constexpr (std::is_same_v<T, sql::Subscript>) {
          if (node.slice) return not_supported("array slices are", expr);
          TANDEM_ASSIGN_OR_RETURN(ScalarExpr array, bind(*node.expr));
          TANDEM_ASSIGN_OR_RETURN(ScalarExpr index, bind(*node.index));
          return make_subscript(std::move(array), std::move(index));
        } else if constexpr (std::is_same_v<T, sql::InSubquery> || std::is_same_v<T, sql::Exists> ||
                             std::is_same_v<T, sql::Subquery> || std::is_same_v<T, sql::ArraySubquery>) {
          return not_supported("subqueries are", expr);
        } else if constexpr (std::is_same_v<T, sql::RowExpr> || std::is_same_v<T, sql::FieldAccess>) {
          return not_supported("row expressions are", expr);
        } else if constexpr (std::is_same_v<T, sql::Collate>) {
          return not_supported("COLLATE is", expr);
        } else {
          return not_supported("this expression is", expr);
        }
      },
      expr.node);
}

Result<ScalarExpr> ExprBinder::bind_number(const sql::NumberLiteral& n) {
  const std::string& text = n.text;
  bool integral = text.find_first_of(".eE") == std::string::npos;
  if (integral) {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc() && p == text.data() + text.size()) {
      if (v >= INT32_MIN && v <= INT32_MAX) {
        return ScalarExpr::literal(Datum::from_int32(static_cast<int32_t>(v)), ColumnType{TypeId::kInt4, -1, false});
      }
      return ScalarExpr::literal(Datum::from_int64(v), ColumnType{TypeId::kInt8, -1, false});
    }
  }
  RowArena arena;
  ColumnType numeric{TypeId::kNumeric, -1, false};
  TANDEM_ASSIGN_OR_RETURN(Datum d, parse_datum(text, numeric, arena));
  return ScalarExpr::literal(d, numeric);
}

Result<ScalarExpr> ExprBinder::bind_typed_literal(const sql::TypedLiteral& lit) {
  TANDEM_ASSIGN_OR_RETURN(ColumnType type, resolve_type(lit.type));
  if (!lit.interval_fields.empty() && type.id == TypeId::kInterval) {
    // INTERVAL '1' DAY: a bare number takes the unit of the last field.
    std::string value = lit.value;
    bool bare_number = !value.empty() && value.find_first_not_of("0123456789.-+ ") == std::string::npos;
    if (bare_number) {
      auto space = lit.interval_fields.rfind(' ');
      value += " " + (space == std::string::npos ? lit.interval_fields : lit.interval_fields.substr(space + 1));
    }
    ScalarExpr unknown = ScalarExpr::literal(Datum::from_string(value), ColumnType{TypeId::kUnknown, -1, false});
    return make_cast(std::move(unknown), type, CastContext::kExplicit);
  }
  ScalarExpr unknown = ScalarExpr::literal(Datum::from_string(lit.value), ColumnType{TypeId::kUnknown, -1, false});
  return make_cast(std::move(unknown), type, CastContext::kExplicit);
}

Result<ScalarExpr> ExprBinder::bind_column(const sql::ColumnRef& ref, const sql::Expr& expr) {
  const std::string& name = ref.names.back();
  std::string table = ref.names.size() >= 2 ? ref.names[ref.names.size() - 2] : "";
  auto matches = [&](const ScopeColumn& c) {
    if (c.name != name) return false;
    if (table.empty()) return !c.qualified_only;
    return !c.unqualified_only && c.table == table;
  };
  size_t max_level = 0;
  for (const auto& c : scope_.columns) max_level = std::max(max_level, c.level);
  for (const auto& c : scope_.ungrouped) max_level = std::max(max_level, c.level);
  for (size_t level = max_level + 1; level-- > 0;) {
    std::optional<size_t> found;
    for (size_t i = 0; i < scope_.columns.size(); ++i) {
      const auto& c = scope_.columns[i];
      if (c.level != level || !matches(c)) continue;
      if (found) {
        std::string full = table.empty() ? name : table + "." + name;
        return at(Status::error(sqlstate::kAmbiguousColumn, "column reference \"" + full + "\" is ambiguous"), expr);
      }
      found = i;
    }
    if (found) return ScalarExpr::column(*found, scope_.columns[*found].type);
    for (const auto& c : scope_.ungrouped) {
      if (c.level == level && matches(c)) {
        std::string full = c.table.empty() ? name : c.table + "." + name;
        return at(Status::error(sqlstate::kGroupingError, "column \"" + full +
                                                              "\" must appear in the GROUP BY clause or be used in "
                                                              "an aggregate function"),
                  expr);
      }
    }
  }
  std::string full = table.empty() ? name : table + "." + name;
  if (!table.empty()) {
    bool table_known = false;
    for (const auto& c : scope_.columns) table_known = table_known || c.table == table;
    for (const auto& c : scope_.ungrouped) table_known = table_known || c.table == table;
    if (!table_known) {
      return at(Status::error(sqlstate::kUndefinedTable, "missing FROM-clause entry for table \"" + table + "\""),
                expr);
    }
  }
  std::string shown = table.empty() ? "\"" + name + "\"" : full;
  return at(Status::error(sqlstate::kUndefinedColumn, "column " + shown + " does not exist"), expr);
}

Result<ScalarExpr> ExprBinder::bind_parameter(const sql::Parameter& p) {
  if (p.index < 1 || p.index > 65535) {
    return Status::error(sqlstate::kUndefinedParameter, "there is no parameter $" + std::to_string(p.index));
  }
  size_t i = static_cast<size_t>(p.index - 1);
  if (param_types_->size() <= i) param_types_->resize(i + 1, ColumnType{TypeId::kUnknown});
  return ScalarExpr::column(param_base_ + i, (*param_types_)[i]);
}

Result<ScalarExpr> ExprBinder::bind_unary(const sql::UnaryOp& op) {
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr arg, bind(*op.operand));
  return operator_call(op.op, {std::move(arg)});
}

Result<ScalarExpr> ExprBinder::bind_binary(const sql::BinaryOp& op) {
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr l, bind(*op.left));
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr r, bind(*op.right));
  auto result = operator_call(op.op, {std::move(l), std::move(r)});
  if (!result.ok() && result.status().position() == 0) {
    // PostgreSQL points at the operator; we know the left operand's start.
    return at(result.status(), *op.left);
  }
  return result;
}

Result<ScalarExpr> ExprBinder::bind_cast(const sql::Cast& cast) {
  TANDEM_ASSIGN_OR_RETURN(ColumnType type, resolve_type(cast.type));
  if (auto* array = cast.expr->as<sql::ArrayExpr>(); array && array->elements.empty() && is_array_type(type.id)) {
    return make_array({}, array_element_type(type.id));  // ARRAY[]::int[]
  }
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, bind(*cast.expr));
  const bool constant = e.is_literal();
  auto cast_to = make_cast(std::move(e), type, CastContext::kExplicit);
  // A constant that does not convert is reported where it is written
  // (PostgreSQL points at the literal, not at the cast).
  if (!cast_to.ok() && constant) return at(cast_to.status(), *cast.expr);
  return cast_to;
}

Result<ScalarExpr> ExprBinder::bind_call(const sql::FunctionCall& call, const sql::Expr& expr) {
  if (call.over) return not_supported("window functions are", expr);
  if (call.distinct || call.star || call.filter || !call.order_by.empty()) {
    return not_supported("aggregate functions are", expr);
  }
  std::string name = call.name.back();
  if (call.name.size() > 2 || (call.name.size() == 2 && call.name[0] != "pg_catalog" && call.name[0] != "mz_catalog")) {
    std::string full;
    for (size_t i = 0; i < call.name.size(); ++i) full += (i ? "." : "") + call.name[i];
    return Status::error(sqlstate::kUndefinedFunction, "function " + full + " does not exist");
  }
  if (name == "unnest") {
    return not_supported("set-returning functions outside FROM and the top level of a SELECT list are", expr);
  }
  static constexpr std::string_view kAggregates[] = {"count", "sum", "avg", "min", "max", "string_agg",
                                                     "array_agg", "bool_and", "bool_or", "stddev", "variance",
                                                     "jsonb_agg", "jsonb_object_agg"};
  for (auto agg : kAggregates) {
    if (name == agg) return not_supported("aggregate functions are", expr);
  }
  std::vector<ScalarExpr> args;
  for (const auto& a : call.args) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, bind(a));
    args.push_back(std::move(e));
  }
  if (name == "pg_typeof" && args.size() == 1) {
    // The argument's type, known here: printed as a regtype is (without
    // modifiers). tandem has no regtype, so the result is text.
    return ScalarExpr::literal(Datum::from_string(type_name(args[0].type().id)), ColumnType{TypeId::kText});
  }
  return resolve_function(name, std::move(args));
}

Result<ScalarExpr> ExprBinder::bind_case(const sql::Case& c) {
  std::optional<ScalarExpr> operand;
  if (c.operand) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, bind(*c.operand));
    operand = std::move(e);
  }
  std::vector<ScalarExpr> conditions;
  std::vector<ScalarExpr> results;
  for (const auto& w : c.whens) {
    if (operand) {
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr v, bind(w.condition));
      auto eq = operator_call("=", {*operand, std::move(v)});
      if (!eq.ok()) return at(eq.status(), w.condition);
      conditions.push_back(std::move(*eq));
    } else {
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr cond, bind_condition(w.condition, "CASE/WHEN"));
      conditions.push_back(std::move(cond));
    }
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr r, bind(w.result));
    results.push_back(std::move(r));
  }
  if (c.else_result) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr r, bind(*c.else_result));
    results.push_back(std::move(r));
  } else {
    results.push_back(ScalarExpr::null(ColumnType{TypeId::kUnknown}));
  }
  // PostgreSQL unifies the ELSE branch first, then the WHENs in order; the
  // error names the pair in that order.
  std::vector<ColumnType> types;
  types.push_back(results.back().type());
  for (size_t i = 0; i + 1 < results.size(); ++i) types.push_back(results[i].type());
  TANDEM_ASSIGN_OR_RETURN(ColumnType type, unify_types(types, "CASE"));
  if (type.id == TypeId::kUnknown) type = ColumnType{TypeId::kText};
  for (auto& r : results) {
    TANDEM_ASSIGN_OR_RETURN(r, make_cast(std::move(r), type, CastContext::kImplicit));
  }
  bool nullable = false;
  for (const auto& r : results) nullable = nullable || r.type().nullable;
  type.nullable = nullable || !c.else_result;
  ScalarExpr out = std::move(results.back());
  for (size_t i = conditions.size(); i-- > 0;) {
    out = ScalarExpr::if_then_else(std::move(conditions[i]), std::move(results[i]), std::move(out), type);
  }
  return out;
}

Result<ScalarExpr> ExprBinder::bind_is(const sql::IsTest& t) {
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, bind(*t.expr));
  ColumnType boolean{TypeId::kBool, -1, false};
  switch (t.kind) {
    case sql::IsTest::Kind::kNull:
      return ScalarExpr::unary(t.negated ? UnaryFunc::kIsNotNull : UnaryFunc::kIsNull, std::move(e), boolean);
    case sql::IsTest::Kind::kUnknown:
    case sql::IsTest::Kind::kTrue:
    case sql::IsTest::Kind::kFalse: {
      if (e.type().id != TypeId::kBool) {
        TANDEM_ASSIGN_OR_RETURN(e, make_cast(std::move(e), ColumnType{TypeId::kBool}, CastContext::kImplicit));
      }
      if (t.kind == sql::IsTest::Kind::kUnknown) {
        return ScalarExpr::unary(t.negated ? UnaryFunc::kIsNotNull : UnaryFunc::kIsNull, std::move(e), boolean);
      }
      UnaryFunc f = t.kind == sql::IsTest::Kind::kTrue ? (t.negated ? UnaryFunc::kIsNotTrue : UnaryFunc::kIsTrue)
                                                       : (t.negated ? UnaryFunc::kIsNotFalse : UnaryFunc::kIsFalse);
      return ScalarExpr::unary(f, std::move(e), boolean);
    }
  }
  return Status::error(sqlstate::kInternalError, "unknown IS test");
}

Result<ScalarExpr> ExprBinder::bind_between(const sql::Between& b) {
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr x, bind(*b.expr));
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr lo, bind(*b.low));
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr hi, bind(*b.high));
  auto range = [&](ScalarExpr low, ScalarExpr high) -> Result<ScalarExpr> {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr ge, operator_call(">=", {x, std::move(low)}));
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr le, operator_call("<=", {x, std::move(high)}));
    return operator_call("AND", {std::move(ge), std::move(le)});
  };
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr out, range(lo, hi));
  if (b.symmetric) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr swapped, range(hi, lo));
    TANDEM_ASSIGN_OR_RETURN(out, operator_call("OR", {std::move(out), std::move(swapped)}));
  }
  if (b.negated) return operator_call("NOT", {std::move(out)});
  return out;
}

namespace {

// Types whose `=` is equality under compare_datums, so that an IN list of
// their constants can be searched in that order.
bool searchable_in_list_type(TypeId id) {
  switch (id) {
    case TypeId::kBool:
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8:
    case TypeId::kFloat4:
    case TypeId::kFloat8:
    case TypeId::kNumeric:
    case TypeId::kText:
    case TypeId::kVarchar:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::optional<ScalarExpr> ExprBinder::bind_in_constants(const ScalarExpr& x, const std::vector<ScalarExpr>& items,
                                                        const ColumnType& common) {
  if (!searchable_in_list_type(common.id)) return std::nullopt;
  auto lhs = make_cast(x, common, CastContext::kImplicit);
  if (!lhs.ok() || lhs->type().id != common.id) return std::nullopt;
  std::vector<ScalarExpr> constants;
  for (const ScalarExpr& item : items) {
    auto cast = make_cast(item, common, CastContext::kImplicit);
    if (!cast.ok()) return std::nullopt;
    // An item that does not fold to a literal (a column, a parameter, a
    // cast that fails) keeps the list an OR of comparisons.
    auto folded = fold(std::move(*cast));
    if (!folded.ok() || !folded->is_literal() || folded->type().id != common.id) return std::nullopt;
    constants.push_back(std::move(*folded));
  }
  auto datum = [](const ScalarExpr& e) { return std::get<Literal>(e.node).datum(); };
  std::stable_sort(constants.begin(), constants.end(),
                   [&](const ScalarExpr& a, const ScalarExpr& b) { return compare_datums(datum(a), datum(b)) < 0; });
  constants.erase(std::unique(constants.begin(), constants.end(),
                              [&](const ScalarExpr& a, const ScalarExpr& b) {
                                return compare_datums(datum(a), datum(b)) == 0;
                              }),
                  constants.end());
  std::vector<ScalarExpr> args;
  args.reserve(constants.size() + 1);
  args.push_back(std::move(*lhs));
  for (ScalarExpr& c : constants) args.push_back(std::move(c));
  return ScalarExpr::variadic(VariadicFunc::kInList, std::move(args), ColumnType{TypeId::kBool, -1, true});
}

Result<ScalarExpr> ExprBinder::bind_in_list(const sql::InList& in) {
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr x, bind(*in.expr));
  // PostgreSQL resolves x IN (a, b) with a common type for all operands.
  std::vector<ScalarExpr> items;
  std::vector<ColumnType> types{x.type()};
  for (const auto& e : in.list) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr item, bind(e));
    types.push_back(item.type());
    items.push_back(std::move(item));
  }
  auto common = unify_types(types, "IN");
  if (common.ok() && items.size() >= kInListMinConstants) {
    if (auto set = bind_in_constants(x, items, *common)) {
      if (in.negated) return operator_call("NOT", {std::move(*set)});
      return std::move(*set);
    }
  }
  std::vector<ScalarExpr> terms;
  for (auto& item : items) {
    ScalarExpr lhs = x;
    if (common.ok() && common->id != TypeId::kUnknown) {
      TANDEM_ASSIGN_OR_RETURN(lhs, make_cast(std::move(lhs), *common, CastContext::kImplicit));
      TANDEM_ASSIGN_OR_RETURN(item, make_cast(std::move(item), *common, CastContext::kImplicit));
    }
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr eq, operator_call("=", {std::move(lhs), std::move(item)}));
    terms.push_back(std::move(eq));
  }
  // The ORs form a balanced tree: a list of thousands of values nests only
  // a dozen levels deep for the passes that recurse over it.
  while (terms.size() > 1) {
    std::vector<ScalarExpr> next;
    for (size_t i = 0; i + 1 < terms.size(); i += 2) {
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr either, operator_call("OR", {std::move(terms[i]), std::move(terms[i + 1])}));
      next.push_back(std::move(either));
    }
    if (terms.size() % 2 == 1) next.push_back(std::move(terms.back()));
    terms = std::move(next);
  }
  if (in.negated) return operator_call("NOT", {std::move(terms.front())});
  return std::move(terms.front());
}

Result<ScalarExpr> ExprBinder::bind_like(const sql::Like& like) {
  if (like.kind == sql::Like::Kind::kSimilar) {
    return Status::error(sqlstate::kFeatureNotSupported, "SIMILAR TO is not supported yet");
  }
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr x, bind(*like.expr));
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr pattern, bind(*like.pattern));
  if (like.escape) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr escape, bind(*like.escape));
    TANDEM_ASSIGN_OR_RETURN(pattern, resolve_function("like_escape", {std::move(pattern), std::move(escape)}));
  }
  bool ilike = like.kind == sql::Like::Kind::kILike;
  const char* op = ilike ? (like.negated ? "!~~*" : "~~*") : (like.negated ? "!~~" : "~~");
  return operator_call(op, {std::move(x), std::move(pattern)});
}

}  // namespace tandem::planner
