#include "common/scalar_func.hpp"

namespace tandem {
namespace {

#define TANDEM_NAME_ENTRY(name, printed, strict) printed,
#define TANDEM_ID_ENTRY(name, printed, strict) std::string_view(#name).substr(1),
#define TANDEM_STRICT_ENTRY(name, printed, strict) strict,
constexpr std::string_view kUnaryNames[] = {TANDEM_UNARY_FUNCS(TANDEM_NAME_ENTRY)};
constexpr std::string_view kBinaryNames[] = {TANDEM_BINARY_FUNCS(TANDEM_NAME_ENTRY)};
constexpr std::string_view kVariadicNames[] = {TANDEM_VARIADIC_FUNCS(TANDEM_NAME_ENTRY)};
constexpr std::string_view kUnaryIds[] = {TANDEM_UNARY_FUNCS(TANDEM_ID_ENTRY)};
constexpr std::string_view kBinaryIds[] = {TANDEM_BINARY_FUNCS(TANDEM_ID_ENTRY)};
constexpr std::string_view kVariadicIds[] = {TANDEM_VARIADIC_FUNCS(TANDEM_ID_ENTRY)};
constexpr bool kUnaryStrict[] = {TANDEM_UNARY_FUNCS(TANDEM_STRICT_ENTRY)};
constexpr bool kBinaryStrict[] = {TANDEM_BINARY_FUNCS(TANDEM_STRICT_ENTRY)};
constexpr bool kVariadicStrict[] = {TANDEM_VARIADIC_FUNCS(TANDEM_STRICT_ENTRY)};
#undef TANDEM_NAME_ENTRY
#undef TANDEM_ID_ENTRY
#undef TANDEM_STRICT_ENTRY

template <class E>
size_t idx(E e) {
  return static_cast<size_t>(e);
}

}  // namespace

std::string_view func_name(UnaryFunc f) { return kUnaryNames[idx(f)]; }
std::string_view func_name(BinaryFunc f) { return kBinaryNames[idx(f)]; }
std::string_view func_name(VariadicFunc f) { return kVariadicNames[idx(f)]; }
std::string_view func_id(UnaryFunc f) { return kUnaryIds[idx(f)]; }
std::string_view func_id(BinaryFunc f) { return kBinaryIds[idx(f)]; }
std::string_view func_id(VariadicFunc f) { return kVariadicIds[idx(f)]; }
bool func_is_strict(UnaryFunc f) { return kUnaryStrict[idx(f)]; }
bool func_is_strict(BinaryFunc f) { return kBinaryStrict[idx(f)]; }
bool func_is_strict(VariadicFunc f) { return kVariadicStrict[idx(f)]; }
bool func_is_foldable(UnaryFunc f) { return f != UnaryFunc::kPgSleep; }
bool func_is_foldable(BinaryFunc f) { return f != BinaryFunc::kError; }
bool func_is_foldable(VariadicFunc f) {
  return f != VariadicFunc::kNow && f != VariadicFunc::kMzNow && f != VariadicFunc::kParameter &&
         !func_is_session(f);
}

bool func_is_session(VariadicFunc f) {
  return f == VariadicFunc::kCurrentUser || f == VariadicFunc::kCurrentDatabase || f == VariadicFunc::kCurrentSchema;
}

bool func_is_array(BinaryFunc f) { return f >= BinaryFunc::kArrayIndex && f <= BinaryFunc::kAllGte; }
bool func_is_array(VariadicFunc f) { return f >= VariadicFunc::kArrayCreate && f <= VariadicFunc::kStringToArray; }

bool func_is_json(UnaryFunc f) { return f >= UnaryFunc::kToJsonb && f <= UnaryFunc::kJsonbPretty; }
bool func_is_json(BinaryFunc f) { return f >= BinaryFunc::kJsonbGetKey && f <= BinaryFunc::kJsonbDeletePath; }
bool func_is_json(VariadicFunc f) {
  return f >= VariadicFunc::kJsonbBuildObject && f <= VariadicFunc::kJsonBuildArray;
}

bool func_is_operator(BinaryFunc f) {
  const std::string_view n = func_name(f);
  return !n.empty() && !(n[0] >= 'a' && n[0] <= 'z');
}

}  // namespace tandem
