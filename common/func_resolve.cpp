// Overload resolution (PostgreSQL docs 10.2 operators, 10.3 functions) and
// select_common_type (10.5). See common/func_resolve.hpp.
#include "common/func_resolve.hpp"

#include <algorithm>
#include <cctype>

#include "common/array_resolve.hpp"
#include "common/func_catalog.hpp"
#include "common/jsonb_resolve.hpp"
#include "common/pg_builtin_functions.hpp"
#include "common/sqlstate.hpp"

namespace tandem {
namespace {

using T = TypeId;

std::string lower(std::string_view s) {
  std::string r;
  for (char c : s) r.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return r;
}

std::string type_list(const std::vector<ScalarExpr>& args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) s += ", ";
    s += type_name(args[i].type().id);
  }
  return s;
}

Status no_operator(std::string_view op, const std::vector<ScalarExpr>& args) {
  std::string sig = args.size() == 1 ? std::string(op) + " " + std::string(type_name(args[0].type().id))
                                     : std::string(type_name(args[0].type().id)) + " " + std::string(op) + " " +
                                           std::string(type_name(args[1].type().id));
  return Status::error(sqlstate::kUndefinedFunction, "operator does not exist: " + sig)
      .with_hint("No operator matches the given name and argument types. You might need to add explicit type casts.");
}

Status no_function(std::string_view name, const std::vector<ScalarExpr>& args) {
  return Status::error(sqlstate::kUndefinedFunction,
                       "function " + std::string(name) + "(" + type_list(args) + ") does not exist")
      .with_hint("No function matches the given name and argument types. You might need to add explicit type casts.");
}

enum class Pick { kFound, kNone, kAmbiguous };

// PostgreSQL's func_select_candidate / oper_select_candidate.
Pick select_candidate(std::vector<const FuncSig*> cands, const std::vector<T>& in, bool is_op,
                      const FuncSig** out) {
  const size_t n = in.size();
  // Exact match (operators: an unknown argument assumes the other's type).
  std::vector<T> probe = in;
  if (is_op && n == 2) {
    if (probe[0] == T::kUnknown && probe[1] != T::kUnknown) probe[0] = probe[1];
    else if (probe[1] == T::kUnknown && probe[0] != T::kUnknown) probe[1] = probe[0];
  }
  for (const FuncSig* c : cands) {
    if (c->args == probe) {
      *out = c;
      return Pick::kFound;
    }
  }
  // mz_timestamp takes integers, numerics, dates and timestamps implicitly
  // (for AS OF and mz_now() comparisons); a call with no mz_timestamp
  // argument must not resolve through it (bigint = date is no operator).
  if (std::find(in.begin(), in.end(), T::kMzTimestamp) == in.end()) {
    std::erase_if(cands, [](const FuncSig* c) {
      return std::find(c->args.begin(), c->args.end(), T::kMzTimestamp) != c->args.end();
    });
  }
  // Implicitly coercible candidates.
  std::erase_if(cands, [&](const FuncSig* c) {
    for (size_t i = 0; i < n; ++i) {
      if (!can_cast(in[i], c->args[i], CastContext::kImplicit)) return true;
    }
    return false;
  });
  if (cands.empty()) return Pick::kNone;
  auto keep_max = [&](auto score) {
    int best = -1;
    for (const FuncSig* c : cands) best = std::max(best, score(c));
    std::erase_if(cands, [&](const FuncSig* c) { return score(c) != best; });
  };
  if (cands.size() > 1) {
    keep_max([&](const FuncSig* c) {
      int k = 0;
      for (size_t i = 0; i < n; ++i) k += in[i] != T::kUnknown && in[i] == c->args[i];
      return k;
    });
  }
  if (cands.size() > 1) {
    keep_max([&](const FuncSig* c) {
      int k = 0;
      for (size_t i = 0; i < n; ++i) {
        if (in[i] == T::kUnknown || in[i] == c->args[i]) continue;
        k += type_is_preferred(c->args[i]) && type_category(c->args[i]) == type_category(in[i]);
      }
      return k;
    });
  }
  if (cands.size() > 1) {
    // Unknown arguments: choose a category per position.
    for (size_t i = 0; i < n && cands.size() > 1; ++i) {
      if (in[i] != T::kUnknown) continue;
      bool any_string = false, same = true, any_preferred = false;
      const TypeCategory first = type_category(cands[0]->args[i]);
      for (const FuncSig* c : cands) {
        any_string |= type_category(c->args[i]) == TypeCategory::kString;
        same &= type_category(c->args[i]) == first;
      }
      if (!any_string && !same) return Pick::kAmbiguous;
      const TypeCategory cat = any_string ? TypeCategory::kString : first;
      std::erase_if(cands, [&](const FuncSig* c) { return type_category(c->args[i]) != cat; });
      for (const FuncSig* c : cands) any_preferred |= type_is_preferred(c->args[i]);
      if (any_preferred) std::erase_if(cands, [&](const FuncSig* c) { return !type_is_preferred(c->args[i]); });
    }
  }
  if (cands.size() > 1) {
    // All known arguments of one type: assume it for the unknown ones.
    T known = T::kUnknown;
    bool one_type = true, has_unknown = false;
    for (T t : in) {
      if (t == T::kUnknown) { has_unknown = true; continue; }
      if (known == T::kUnknown) known = t;
      else one_type &= known == t;
    }
    if (has_unknown && one_type && known != T::kUnknown) {
      std::vector<const FuncSig*> fit;
      for (const FuncSig* c : cands) {
        bool ok = true;
        for (size_t i = 0; i < n; ++i) {
          if (in[i] == T::kUnknown && !can_cast(known, c->args[i], CastContext::kImplicit)) ok = false;
        }
        if (ok) fit.push_back(c);
      }
      if (fit.size() == 1) cands = fit;
    }
  }
  if (cands.size() != 1) return Pick::kAmbiguous;
  *out = cands[0];
  return Pick::kFound;
}

bool any_nullable(const std::vector<ScalarExpr>& args) {
  for (const auto& a : args) {
    if (a.type().nullable) return true;
  }
  return false;
}

Result<ScalarExpr> build_call(const FuncSig& sig, std::vector<ScalarExpr> args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const TypeId to = sig.operand != TypeId::kUnknown ? sig.operand : sig.args[i];
    TANDEM_ASSIGN_OR_RETURN(args[i], make_cast(std::move(args[i]), ColumnType{to}, CastContext::kImplicit));
  }
  ColumnType out{sig.result};
  out.nullable = any_nullable(args) || sig.kind == FuncSig::Kind::kVariadic;
  switch (sig.kind) {
    case FuncSig::Kind::kIdentity: return std::move(args[0]);
    case FuncSig::Kind::kUnary:
      return ScalarExpr::unary(static_cast<UnaryFunc>(sig.func), std::move(args[0]), out);
    case FuncSig::Kind::kBinary:
      return ScalarExpr::binary(static_cast<BinaryFunc>(sig.func), std::move(args[0]), std::move(args[1]), out);
    case FuncSig::Kind::kNotBinary:
      return ScalarExpr::unary(
          UnaryFunc::kNot,
          ScalarExpr::binary(static_cast<BinaryFunc>(sig.func), std::move(args[0]), std::move(args[1]), out), out);
    case FuncSig::Kind::kVariadic:
      return ScalarExpr::variadic(static_cast<VariadicFunc>(sig.func), std::move(args), out);
  }
  return Status::error(sqlstate::kInternalError, "bad signature kind");
}

Result<ScalarExpr> to_bool(ScalarExpr e, std::string_view construct) {
  const T t = e.type().id;
  if (t == T::kBool) return e;
  if (t == T::kUnknown) return make_cast(std::move(e), ColumnType{T::kBool}, CastContext::kImplicit);
  return Status::error(sqlstate::kDatatypeMismatch, "argument of " + std::string(construct) +
                                                        " must be type boolean, not type " +
                                                        std::string(type_name(t)));
}

// Coerces all args to their common type.
Result<std::vector<ScalarExpr>> unify_args(std::vector<ScalarExpr> args, std::string_view context, ColumnType* out) {
  std::vector<ColumnType> types;
  for (const auto& a : args) types.push_back(a.type());
  TANDEM_ASSIGN_OR_RETURN(*out, unify_types(types, context));
  for (auto& a : args) {
    TANDEM_ASSIGN_OR_RETURN(a, make_cast(std::move(a), *out, CastContext::kImplicit));
  }
  return args;
}

bool is_stringish(T t) { return is_string_type(t); }

}  // namespace

Result<ColumnType> unify_types(std::span<const ColumnType> types, std::string_view context) {
  const ColumnType* p = nullptr;
  bool nullable = false;
  for (const auto& t : types) {
    nullable |= t.nullable;
    if (t.id == T::kUnknown) continue;
    if (!p) {
      p = &t;
      continue;
    }
    if (t.id == p->id) continue;
    if (type_category(t.id) != type_category(p->id)) {
      return Status::error(sqlstate::kDatatypeMismatch, std::string(context) + " types " +
                                                            std::string(type_name(p->id)) + " and " +
                                                            std::string(type_name(t.id)) + " cannot be matched");
    }
    if (!type_is_preferred(p->id) && can_cast(p->id, t.id, CastContext::kImplicit) &&
        !can_cast(t.id, p->id, CastContext::kImplicit)) {
      p = &t;
    }
  }
  if (!p) return ColumnType{T::kText, -1, nullable};
  ColumnType r{p->id, p->typmod, nullable};
  for (const auto& t : types) {
    if (t.id == T::kUnknown) continue;
    if (t.id != r.id || t.typmod != r.typmod) r.typmod = -1;
    if (!can_cast(t.id, r.id, CastContext::kImplicit)) {
      return Status::error(sqlstate::kDatatypeMismatch, std::string(context) + " could not convert type " +
                                                            std::string(type_name(t.id)) + " to " +
                                                            std::string(type_name(r.id)));
    }
  }
  return r;
}

Result<ScalarExpr> resolve_operator(std::string_view raw_op, std::vector<ScalarExpr> args) {
  std::string op = lower(raw_op);
  if (op == "!=") op = "<>";
  if (auto array = resolve_array_operator(op, args)) return std::move(*array);
  if (op == "not" && args.size() == 1) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr a, to_bool(std::move(args[0]), "NOT"));
    ColumnType t{T::kBool, -1, a.type().nullable};
    return ScalarExpr::unary(UnaryFunc::kNot, std::move(a), t);
  }
  if ((op == "and" || op == "or") && args.size() == 2) {
    const char* name = op == "and" ? "AND" : "OR";
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr a, to_bool(std::move(args[0]), name));
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr b, to_bool(std::move(args[1]), name));
    ColumnType t{T::kBool, -1, a.type().nullable || b.type().nullable};
    return ScalarExpr::binary(op == "and" ? BinaryFunc::kAnd : BinaryFunc::kOr, std::move(a), std::move(b), t);
  }
  if (args.empty() || args.size() > 2) {
    return Status::error(sqlstate::kSyntaxError, "operator " + op + " takes one or two arguments");
  }
  std::vector<T> in;
  for (const auto& a : args) in.push_back(a.type().id);
  const FuncSig* sig = nullptr;
  switch (select_candidate(lookup_operator(op, args.size()), in, true, &sig)) {
    case Pick::kFound: return build_call(*sig, std::move(args));
    case Pick::kAmbiguous:
      return Status::error(sqlstate::kAmbiguousFunction,
                           "operator is not unique: " +
                               (args.size() == 1 ? op + " " + std::string(type_name(in[0]))
                                                 : std::string(type_name(in[0])) + " " + op + " " +
                                                       std::string(type_name(in[1]))))
          .with_hint("Could not choose a best candidate operator. You might need to add explicit type casts.");
    case Pick::kNone: break;
  }
  // text || anynonarray and anynonarray || text are PostgreSQL's
  // `$1 || $2::text`: the non-text side is cast to text ('a' || true = 'atrue').
  if (op == "||" && args.size() == 2 && (is_stringish(in[0]) || is_stringish(in[1]))) {
    for (auto& a : args) {
      const CastContext cc = is_stringish(a.type().id) ? CastContext::kImplicit : CastContext::kExplicit;
      TANDEM_ASSIGN_OR_RETURN(a, make_cast(std::move(a), ColumnType{T::kText}, cc));
    }
    ColumnType out{T::kText, -1, any_nullable(args)};
    return ScalarExpr::binary(BinaryFunc::kTextConcat, std::move(args[0]), std::move(args[1]), out);
  }
  return no_operator(op, args);
}

Result<ScalarExpr> resolve_function(std::string_view raw_name, std::vector<ScalarExpr> args) {
  std::string name = lower(raw_name);
  for (std::string_view prefix : {"pg_catalog.", "mz_catalog."}) {
    if (name.rfind(prefix, 0) == 0) name.erase(0, prefix.size());
  }
  if (auto array = resolve_array_function(name, args)) return std::move(*array);
  if (auto json = resolve_json_function(name, args)) return std::move(*json);
  if (name == "coalesce" || name == "greatest" || name == "least") {
    if (args.empty()) return no_function(name, args);
    std::string ctx = name == "coalesce" ? "COALESCE" : name == "greatest" ? "GREATEST" : "LEAST";
    ColumnType t;
    TANDEM_ASSIGN_OR_RETURN(args, unify_args(std::move(args), ctx, &t));
    if (name == "coalesce") {
      t.nullable = std::all_of(args.begin(), args.end(), [](const ScalarExpr& a) { return a.type().nullable; });
    }
    const VariadicFunc f = name == "coalesce" ? VariadicFunc::kCoalesce
                           : name == "greatest" ? VariadicFunc::kGreatest : VariadicFunc::kLeast;
    return ScalarExpr::variadic(f, std::move(args), t);
  }
  if (name == "nullif") {
    if (args.size() != 2) return no_function(name, args);
    // NULLIF(a, b) is typed as a and compares with the = operator.
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr eq, resolve_operator("=", {args[0], args[1]}));
    const auto& call = std::get<CallBinary>(eq.node);
    ColumnType t = call.lhs->type();
    t.nullable = true;
    return ScalarExpr::binary(BinaryFunc::kNullIf, *call.lhs, *call.rhs, t);
  }
  if (name == "concat" || name == "concat_ws") {
    if (args.empty() || (name == "concat_ws" && args.size() < 2)) return no_function(name, args);
    if (name == "concat_ws") {
      TANDEM_ASSIGN_OR_RETURN(args[0], make_cast(std::move(args[0]), ColumnType{T::kText}, CastContext::kImplicit));
    }
    ColumnType t{T::kText, -1, name == "concat_ws" && args[0].type().nullable};
    return ScalarExpr::variadic(name == "concat" ? VariadicFunc::kConcat : VariadicFunc::kConcatWs, std::move(args), t);
  }
  if (name == "position" && args.size() == 2) {
    // position(s, sub), which `position(sub IN s)` parses to, is strpos(s, sub).
    name = "strpos";
  }
  std::vector<T> in;
  for (const auto& a : args) in.push_back(a.type().id);
  const FuncSig* sig = nullptr;
  switch (select_candidate(lookup_function(name, args.size()), in, false, &sig)) {
    case Pick::kFound: return build_call(*sig, std::move(args));
    case Pick::kAmbiguous:
      return Status::error(sqlstate::kAmbiguousFunction,
                           "function " + name + "(" + type_list(args) + ") is not unique")
          .with_hint("Could not choose a best candidate function. You might need to add explicit type casts.");
    case Pick::kNone: break;
  }
  if (!function_exists(name) && is_postgres_builtin_function(name)) {
    return Status::error(sqlstate::kFeatureNotSupported, "function " + name + " is not supported yet");
  }
  return no_function(name, args);
}

}  // namespace tandem
