#include "common/types.hpp"

#include <cctype>
#include <iterator>

#include "common/sqlstate.hpp"

namespace tandem {
namespace {

struct TypeInfo {
  TypeId id;
  uint32_t oid;
  int16_t len;
  std::string_view name;
  TypeCategory category;
  bool preferred;
};

// Indexed by TypeId. Categories and preferred flags are pg_type's.
constexpr TypeInfo kTypes[kNumTypeIds] = {
    {TypeId::kUnknown, 705, -2, "unknown", TypeCategory::kUnknown, false},
    {TypeId::kBool, 16, 1, "boolean", TypeCategory::kBoolean, true},
    {TypeId::kInt2, 21, 2, "smallint", TypeCategory::kNumeric, false},
    {TypeId::kInt4, 23, 4, "integer", TypeCategory::kNumeric, false},
    {TypeId::kInt8, 20, 8, "bigint", TypeCategory::kNumeric, false},
    {TypeId::kFloat4, 700, 4, "real", TypeCategory::kNumeric, false},
    {TypeId::kFloat8, 701, 8, "double precision", TypeCategory::kNumeric, true},
    {TypeId::kNumeric, 1700, -1, "numeric", TypeCategory::kNumeric, false},
    {TypeId::kText, 25, -1, "text", TypeCategory::kString, true},
    {TypeId::kVarchar, 1043, -1, "character varying", TypeCategory::kString, false},
    {TypeId::kBpchar, 1042, -1, "character", TypeCategory::kString, false},
    {TypeId::kBytea, 17, -1, "bytea", TypeCategory::kUserDefined, false},
    {TypeId::kDate, 1082, 4, "date", TypeCategory::kDateTime, false},
    {TypeId::kTime, 1083, 8, "time without time zone", TypeCategory::kDateTime, false},
    {TypeId::kTimestamp, 1114, 8, "timestamp without time zone", TypeCategory::kDateTime, false},
    {TypeId::kTimestampTz, 1184, 8, "timestamp with time zone", TypeCategory::kDateTime, true},
    {TypeId::kInterval, 1186, 16, "interval", TypeCategory::kTimespan, true},
    // oid is the preferred type of category N in pg_type, but it is never
    // reached implicitly from the other numeric types except by the integer
    // casts, so preferring it does not make int + int resolve to oid.
    {TypeId::kOid, 26, 4, "oid", TypeCategory::kNumeric, true},
    {TypeId::kMzTimestamp, 16552, 8, "mz_timestamp", TypeCategory::kUserDefined, false},
    {TypeId::kJson, 114, -1, "json", TypeCategory::kUserDefined, false},
    {TypeId::kJsonb, 3802, -1, "jsonb", TypeCategory::kUserDefined, false},
    {TypeId::kBoolArray, 1000, -1, "boolean[]", TypeCategory::kArray, false},
    {TypeId::kInt2Array, 1005, -1, "smallint[]", TypeCategory::kArray, false},
    {TypeId::kInt4Array, 1007, -1, "integer[]", TypeCategory::kArray, false},
    {TypeId::kInt8Array, 1016, -1, "bigint[]", TypeCategory::kArray, false},
    {TypeId::kFloat4Array, 1021, -1, "real[]", TypeCategory::kArray, false},
    {TypeId::kFloat8Array, 1022, -1, "double precision[]", TypeCategory::kArray, false},
    {TypeId::kNumericArray, 1231, -1, "numeric[]", TypeCategory::kArray, false},
    {TypeId::kTextArray, 1009, -1, "text[]", TypeCategory::kArray, false},
    {TypeId::kVarcharArray, 1015, -1, "character varying[]", TypeCategory::kArray, false},
    {TypeId::kBpcharArray, 1014, -1, "character[]", TypeCategory::kArray, false},
    {TypeId::kByteaArray, 1001, -1, "bytea[]", TypeCategory::kArray, false},
    {TypeId::kDateArray, 1182, -1, "date[]", TypeCategory::kArray, false},
    {TypeId::kTimeArray, 1183, -1, "time without time zone[]", TypeCategory::kArray, false},
    {TypeId::kTimestampArray, 1115, -1, "timestamp without time zone[]", TypeCategory::kArray, false},
    {TypeId::kTimestampTzArray, 1185, -1, "timestamp with time zone[]", TypeCategory::kArray, false},
    {TypeId::kIntervalArray, 1187, -1, "interval[]", TypeCategory::kArray, false},
    {TypeId::kOidArray, 1028, -1, "oid[]", TypeCategory::kArray, false},
};

// Element type of each array type, in TypeId order from kBoolArray.
constexpr TypeId kArrayElements[] = {
    TypeId::kBool,  TypeId::kInt2,    TypeId::kInt4, TypeId::kInt8,      TypeId::kFloat4,      TypeId::kFloat8,
    TypeId::kNumeric, TypeId::kText,  TypeId::kVarchar, TypeId::kBpchar, TypeId::kBytea,       TypeId::kDate,
    TypeId::kTime,  TypeId::kTimestamp, TypeId::kTimestampTz, TypeId::kInterval, TypeId::kOid};
static_assert(std::size(kArrayElements) == kNumTypeIds - static_cast<int>(TypeId::kBoolArray));

const TypeInfo& info(TypeId id) { return kTypes[static_cast<int>(id)]; }

std::string normalize_name(std::string_view name) {
  std::string out;
  bool space = false;
  for (char c : name) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (out.rfind("pg_catalog.", 0) == 0) out.erase(0, 11);
  return out;
}

Status bad_modifier(std::string msg) {
  return Status::error(sqlstate::kInvalidParameterValue, std::move(msg));
}

Result<ColumnType> with_no_modifiers(TypeId id, std::string_view name, std::span<const int32_t> mods) {
  if (!mods.empty()) {
    return Status::error(sqlstate::kSyntaxError,
                         "type modifier is not allowed for type \"" + std::string(name) + "\"");
  }
  return ColumnType{id};
}

Result<ColumnType> time_precision(TypeId id, std::span<const int32_t> mods) {
  if (mods.empty()) return ColumnType{id};
  if (mods.size() != 1) return bad_modifier("invalid type modifier");
  if (mods[0] < 0) {
    return bad_modifier("TIME(" + std::to_string(mods[0]) + ") precision must not be negative");
  }
  return ColumnType{id, mods[0] > 6 ? 6 : mods[0]};
}

}  // namespace

uint32_t type_oid(TypeId id) { return info(id).oid; }

bool type_from_oid(uint32_t oid, TypeId* out) {
  for (const auto& t : kTypes) {
    if (t.oid == oid) {
      *out = t.id;
      return true;
    }
  }
  return false;
}

int16_t type_len(TypeId id) { return info(id).len; }
std::string_view type_name(TypeId id) { return info(id).name; }
TypeCategory type_category(TypeId id) { return info(id).category; }
bool type_is_preferred(TypeId id) { return info(id).preferred; }

bool is_string_type(TypeId id) {
  return id == TypeId::kText || id == TypeId::kVarchar || id == TypeId::kBpchar ||
         id == TypeId::kUnknown;
}

bool is_integer_type(TypeId id) {
  return id == TypeId::kInt2 || id == TypeId::kInt4 || id == TypeId::kInt8;
}

bool is_array_type(TypeId id) { return id >= TypeId::kBoolArray; }

TypeId array_element_type(TypeId array) {
  return kArrayElements[static_cast<int>(array) - static_cast<int>(TypeId::kBoolArray)];
}

TypeId array_type_of(TypeId element) {
  for (size_t i = 0; i < std::size(kArrayElements); ++i) {
    if (kArrayElements[i] == element) return static_cast<TypeId>(static_cast<int>(TypeId::kBoolArray) + i);
  }
  return TypeId::kUnknown;
}

std::string format_type(const ColumnType& type) {
  if (is_array_type(type.id)) return format_type(ColumnType{array_element_type(type.id), type.typmod}) + "[]";
  std::string name(type_name(type.id));
  if (type.typmod < 0) return name;
  switch (type.id) {
    case TypeId::kVarchar:
    case TypeId::kBpchar:
      return name + "(" + std::to_string(char_typmod_length(type.typmod)) + ")";
    case TypeId::kNumeric:
      return name + "(" + std::to_string(numeric_typmod_precision(type.typmod)) + "," +
             std::to_string(numeric_typmod_scale(type.typmod)) + ")";
    case TypeId::kTime:
      return "time(" + std::to_string(type.typmod) + ") without time zone";
    case TypeId::kTimestamp:
      return "timestamp(" + std::to_string(type.typmod) + ") without time zone";
    case TypeId::kTimestampTz:
      return "timestamp(" + std::to_string(type.typmod) + ") with time zone";
    default:
      return name;
  }
}

Result<ColumnType> type_from_name(std::string_view raw_name, std::span<const int32_t> mods) {
  const std::string name = normalize_name(raw_name);
  const bool suffixed = name.size() > 2 && name.ends_with("[]");
  if (suffixed || (name.size() > 1 && name[0] == '_')) {
    std::string element = suffixed ? name.substr(0, name.size() - 2) : name.substr(1);
    while (element.ends_with("[]")) element.resize(element.size() - 2);  // int[][] is int[]
    auto t = type_from_name(element, mods);
    if (!t.ok()) {
      if (t.status().sqlstate() != sqlstate::kUndefinedObject) return t.status();
      return Status::error(sqlstate::kUndefinedObject, "type \"" + std::string(raw_name) + "\" does not exist");
    }
    const TypeId array = array_type_of(t->id);
    if (array == TypeId::kUnknown) {
      return Status::error(sqlstate::kFeatureNotSupported,
                           "arrays of type " + std::string(type_name(t->id)) + " are not supported");
    }
    return ColumnType{array, t->typmod};
  }
  if (name == "int" || name == "integer" || name == "int4") return with_no_modifiers(TypeId::kInt4, name, mods);
  if (name == "smallint" || name == "int2") return with_no_modifiers(TypeId::kInt2, name, mods);
  if (name == "bigint" || name == "int8") return with_no_modifiers(TypeId::kInt8, name, mods);
  if (name == "real" || name == "float4") return with_no_modifiers(TypeId::kFloat4, name, mods);
  if (name == "double precision" || name == "float8") return with_no_modifiers(TypeId::kFloat8, name, mods);
  if (name == "float") {
    if (mods.empty()) return ColumnType{TypeId::kFloat8};
    if (mods.size() != 1) return bad_modifier("invalid type modifier");
    if (mods[0] < 1) return bad_modifier("precision for type float must be at least 1 bit");
    if (mods[0] <= 24) return ColumnType{TypeId::kFloat4};
    if (mods[0] <= 53) return ColumnType{TypeId::kFloat8};
    return bad_modifier("precision for type float must be less than 54 bits");
  }
  if (name == "numeric" || name == "decimal" || name == "dec") {
    if (mods.empty()) return ColumnType{TypeId::kNumeric};
    if (mods.size() > 2) return bad_modifier("invalid NUMERIC type modifier");
    const int p = mods[0];
    const int s = mods.size() == 2 ? mods[1] : 0;
    if (p < 1 || p > kNumericMaxPrecision) {
      return bad_modifier("NUMERIC precision " + std::to_string(p) + " must be between 1 and 1000");
    }
    if (s < 0 || s > p) {
      return bad_modifier("NUMERIC scale " + std::to_string(s) + " must be between 0 and precision " +
                          std::to_string(p));
    }
    return ColumnType{TypeId::kNumeric, numeric_typmod(p, s)};
  }
  if (name == "text" || name == "string") return with_no_modifiers(TypeId::kText, name, mods);
  if (name == "varchar" || name == "character varying" || name == "char varying" || name == "bpchar" ||
      name == "char" || name == "character") {
    const bool varying = name.find("var") != std::string::npos;
    const TypeId id = varying ? TypeId::kVarchar : TypeId::kBpchar;
    if (mods.empty()) {
      // SQL: CHARACTER without a length means CHARACTER(1); bpchar is unbounded.
      if (!varying && name != "bpchar") return ColumnType{id, char_typmod(1)};
      return ColumnType{id};
    }
    if (mods.size() != 1) return bad_modifier("invalid type modifier");
    const char* what = varying ? "varchar" : "char";
    if (mods[0] < 1) return bad_modifier(std::string("length for type ") + what + " must be at least 1");
    if (mods[0] > 10485760) {
      return bad_modifier(std::string("length for type ") + what + " cannot exceed 10485760");
    }
    return ColumnType{id, char_typmod(mods[0])};
  }
  if (name == "bytea") return with_no_modifiers(TypeId::kBytea, name, mods);
  if (name == "date") return with_no_modifiers(TypeId::kDate, name, mods);
  if (name == "time" || name == "time without time zone") return time_precision(TypeId::kTime, mods);
  if (name == "timestamp" || name == "timestamp without time zone") {
    return time_precision(TypeId::kTimestamp, mods);
  }
  if (name == "timestamptz" || name == "timestamp with time zone") {
    return time_precision(TypeId::kTimestampTz, mods);
  }
  if (name == "time with time zone" || name == "timetz") {
    return Status::error(sqlstate::kFeatureNotSupported, "type \"time with time zone\" is not supported");
  }
  if (name == "interval") {
    if (!mods.empty()) {
      return Status::error(sqlstate::kFeatureNotSupported, "interval type modifiers are not supported");
    }
    return ColumnType{TypeId::kInterval};
  }
  if (name == "boolean" || name == "bool") return with_no_modifiers(TypeId::kBool, name, mods);
  if (name == "oid") return with_no_modifiers(TypeId::kOid, name, mods);
  if (name == "mz_timestamp") return with_no_modifiers(TypeId::kMzTimestamp, name, mods);
  if (name == "json") return with_no_modifiers(TypeId::kJson, name, mods);
  if (name == "jsonb") return with_no_modifiers(TypeId::kJsonb, name, mods);
  if (name == "unknown") return with_no_modifiers(TypeId::kUnknown, name, mods);
  return Status::error(sqlstate::kUndefinedObject, "type \"" + std::string(raw_name) + "\" does not exist");
}

}  // namespace tandem
