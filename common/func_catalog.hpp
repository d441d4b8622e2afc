#pragma once
// The built-in operator and function signatures (the pg_operator/pg_proc of
// tandem), consulted by func_resolve.cpp. Internal to common/.
// Threading: built once (thread-safe static init), then read-only.

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/scalar_func.hpp"
#include "common/types.hpp"

namespace tandem {

struct FuncSig {
  enum class Kind : uint8_t { kUnary, kBinary, kVariadic, kNotBinary /* NOT (binary), e.g. !~~ */, kIdentity };
  std::string_view name;
  std::vector<TypeId> args;
  TypeId result;
  Kind kind;
  uint16_t func;  // UnaryFunc/BinaryFunc/VariadicFunc by kind
  // When set, every argument is widened to this type before the call: a
  // cross-type operator (PostgreSQL's float48mul: real * double precision)
  // computed by the wider type's function.
  TypeId operand = TypeId::kUnknown;
};

// Signatures for `name` with `nargs` arguments; operators and functions are
// separate namespaces.
std::vector<const FuncSig*> lookup_operator(std::string_view name, size_t nargs);
std::vector<const FuncSig*> lookup_function(std::string_view name, size_t nargs);
bool function_exists(std::string_view name);

}  // namespace tandem
