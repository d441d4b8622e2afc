// Rows of the pg_catalog and information_schema relations, with PostgreSQL's
// column names (the columns psql and common drivers read). PostgreSQL's
// "char" columns (relkind, typtype, ...) are text, and its aclitem[]
// columns (relacl, datacl, nspacl) text[]: NULL, the default privileges, as
// tandem has no GRANT. reloptions and attoptions are NULL (no storage
// options). pg_type lists every type and its array type (typelem), with
// PostgreSQL's I/O function names as text (regproc there).
// pg_am has the access methods of tandem's indexes: `arrangement` for
// CREATE INDEX (an arrangement) and `hash` for the index that
// enforces a table key; pg_class.relam names them for indexes, 0 otherwise.
// pg_attrdef.adbin holds the DEFAULT expression as SQL text, which
// pg_get_expr returns as is. pg_constraint lists the tables' keys
// (builtin_table_keys.cpp). pg_description and pg_inherits are empty:
// tandem has no comments or inheritance.
#include "catalog/builtin_relations.hpp"

namespace tandem::catalog::builtin_detail {
namespace {

using T = TypeId;

constexpr uint32_t kDefaultCollationOid = 100;
constexpr TypeId kAllTypes[] = {T::kBool,  T::kInt2,      T::kInt4,        T::kInt8,     T::kFloat4,
                                T::kFloat8, T::kNumeric,  T::kText,        T::kVarchar,  T::kBpchar,
                                T::kBytea,  T::kDate,     T::kTime,        T::kTimestamp, T::kTimestampTz,
                                T::kInterval, T::kOid,    T::kMzTimestamp, T::kJson, T::kJsonb};

// pg_attribute.attstorage: the type's default typstorage.
std::string storage_of(TypeId t) {
  if (t == T::kNumeric) return "m";
  return type_len(t) > 0 ? "p" : "x";
}

Datum str(const std::string& s) { return Datum::from_string(s); }
Datum oid(uint32_t v) { return Datum::from_oid(v); }
Datum b(bool v) { return Datum::from_bool(v); }
Datum i2(int v) { return Datum::from_int16(static_cast<int16_t>(v)); }

uint32_t pg_catalog_oid(const CatalogSnapshot& s) {
  const Schema* pg = s.find_schema("", kPgCatalogSchema);
  return pg ? schema_oid(pg->id) : 0;
}

// pg_type.typname: PostgreSQL's internal names.
std::string typname(TypeId t) {
  switch (t) {
    case T::kBool: return "bool";
    case T::kInt2: return "int2";
    case T::kInt4: return "int4";
    case T::kInt8: return "int8";
    case T::kFloat4: return "float4";
    case T::kFloat8: return "float8";
    case T::kNumeric: return "numeric";
    case T::kText: return "text";
    case T::kVarchar: return "varchar";
    case T::kBpchar: return "bpchar";
    case T::kBytea: return "bytea";
    case T::kDate: return "date";
    case T::kTime: return "time";
    case T::kTimestamp: return "timestamp";
    case T::kTimestampTz: return "timestamptz";
    case T::kInterval: return "interval";
    case T::kOid: return "oid";
    case T::kMzTimestamp: return "mz_timestamp";
    case T::kJson: return "json";
    case T::kJsonb: return "jsonb";
    case T::kUnknown: return "unknown";
    default: break;
  }
  if (is_array_type(t)) {
    std::string name = "_";
    name += typname(array_element_type(t));
    return name;
  }
  return "unknown";
}

// pg_type's I/O function names (typinput, typoutput, typreceive,
// typsend), as PostgreSQL names them: e.g. int4in, numeric_in, array_in.
std::string io_function(TypeId t, const char* suffix) {
  if (is_array_type(t)) return std::string("array_") + suffix;
  std::string name = typname(t);
  switch (t) {
    case T::kNumeric: case T::kDate: case T::kTime: case T::kTimestamp: case T::kTimestampTz:
    case T::kInterval: case T::kJson: case T::kJsonb: case T::kMzTimestamp:
      return name + "_" + suffix;
    default:
      return name + suffix;
  }
}

// pg_type.typalign: a fixed-length type aligns to its length; varlena
// types to 4 bytes, interval and arrays of 8-byte types to 8.
std::string alignment_of(TypeId t) {
  TypeId base = is_array_type(t) ? array_element_type(t) : t;
  int len = type_len(base);
  if (base == T::kInterval || len == 8) return "d";
  if (is_array_type(t)) return "i";
  if (len == 1) return "c";
  if (len == 2) return "s";
  return "i";
}

uint32_t collation_of(TypeId t) {
  if (is_array_type(t)) t = array_element_type(t);
  return is_string_type(t) ? kDefaultCollationOid : 0;
}

std::string relkind(const Item& item) {
  switch (item.kind) {
    case ItemKind::kView: return "v";
    case ItemKind::kMaterializedView: return "m";
    case ItemKind::kIndex: return "i";
    case ItemKind::kTable:
    case ItemKind::kSource: return "r";
  }
  return "r";
}

std::vector<Row> namespaces(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Schema* schema : s.schemas(kDefaultDatabase)) {
    rows.push_back(make_row({oid(schema_oid(schema->id)), str(schema->name),
                             oid(schema->is_system() ? kMzSystemRoleOid
                                                     : role_oid(owner_of(s, schema_object(schema->id), ObjectType::kSchema))),
                             Datum::null()}));
  }
  return rows;
}

std::vector<Row> classes(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Item* item : s.items()) {
    const Schema* schema = schema_of(s, *item);
    bool has_index = !s.indexes_on(item->id).empty() || !table_keys(*item).empty();
    auto natts = static_cast<int>(item->kind == ItemKind::kIndex && item->index() ? item->index()->keys.size()
                                                                                  : item->desc.arity());
    uint32_t am = item->kind == ItemKind::kIndex ? kArrangementAmOid : 0;
    // relacl: the ACL of user relations (NULL, the default, for the catalog).
    std::string acl = item->id.is_user() && item->is_relation()
                          ? acl_elements(s, item_object(item->id), object_type_of(*item))
                          : std::string();
    Datum relacl = item->id.is_user() && item->is_relation() ? Datum::from_array(acl) : Datum::null();
    rows.push_back(make_row({oid(item_oid(item->id)), str(item->name.item), oid(schema ? schema_oid(schema->id) : 0),
                             oid(0), oid(0), oid(owner_oid(s, *item)), oid(am), oid(0), oid(0), oid(0), b(has_index),
                             str("p"), str(relkind(*item)), i2(natts), i2(0), b(false), b(false), b(false), b(false),
                             str("d"), b(false), b(false), Datum::null(), relacl, Datum::null()}));
  }
  // The hash index enforcing each table key (builtin_table_keys.cpp).
  for_each_table_key(s, [&](const Item& table, size_t k, const TableKey& key) {
    const Schema* schema = schema_of(s, table);
    rows.push_back(make_row({oid(key_index_oid(table.id, k)), str(key.name), oid(schema ? schema_oid(schema->id) : 0),
                             oid(0), oid(0), oid(owner_oid(s, table)), oid(kHashAmOid), oid(0), oid(0), oid(0), b(false),
                             str("p"), str("i"), i2(static_cast<int>(key.columns.size())), i2(0), b(false), b(false),
                             b(false), b(false), str("n"), b(false), b(false), Datum::null(), Datum::null(),
                             Datum::null()}));
  });
  return rows;
}

Row attribute_row(uint32_t rel, const std::string& name, const ColumnType& type, size_t attnum, bool not_null,
                  bool has_default) {
  return make_row({oid(rel), str(name), oid(type_oid(type.id)), i2(type_len(type.id)), i2(static_cast<int>(attnum)),
                   Datum::from_int32(type.typmod), b(not_null), b(has_default), str(""), str(""), b(false),
                   oid(collation_of(type.id)), str(storage_of(type.id)), str(""), Datum::from_int32(-1),
                   Datum::null(), Datum::null()});
}

std::vector<Row> attributes(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for_each_column(s, [&](const Item& item, size_t c, const Column& col, const TableColumnInfo* info) {
    // attnotnull is the NOT NULL constraint, which only tables have (a
    // view's inferred non-nullability is mz_columns.nullable).
    bool not_null = info && info->not_null;
    bool has_default = info && info->default_sql.has_value();
    rows.push_back(attribute_row(item_oid(item.id), col.name, col.type, c + 1, not_null, has_default));
  });
  // An index's columns are its keys, named as PostgreSQL names them: the
  // column's name, or expr, expr1, ... for expressions.
  for (const Item* item : s.items()) {
    const IndexDetails* d = item->index();
    const Item* on = d ? s.item(d->on) : nullptr;
    if (on == nullptr) continue;
    int exprs = 0;
    for (size_t k = 0; k < d->keys.size(); ++k) {
      const IndexKey& key = d->keys[k];
      if (key.column) {
        const Column& col = on->desc.columns[*key.column];
        rows.push_back(attribute_row(item_oid(item->id), col.name, col.type, k + 1, false, false));
      } else {
        std::string name = exprs == 0 ? "expr" : "expr" + std::to_string(exprs);
        ++exprs;
        rows.push_back(attribute_row(item_oid(item->id), name, key.type, k + 1, false, false));
      }
    }
  }
  for_each_table_key(s, [&](const Item& table, size_t k, const TableKey& key) {
    for (size_t c = 0; c < key.columns.size(); ++c) {
      const Column& col = table.desc.columns[key.columns[c]];
      rows.push_back(attribute_row(key_index_oid(table.id, k), col.name, col.type, c + 1, false, false));
    }
  });
  return rows;
}

std::vector<Row> attrdefs(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Item* item : s.items()) {
    const TableDetails* table = item->table();
    if (table == nullptr) continue;
    for (size_t c = 0; c < table->columns.size(); ++c) {
      if (!table->columns[c].default_sql) continue;
      rows.push_back(make_row({oid(item_oid(item->id)), i2(static_cast<int>(c + 1)), str(*table->columns[c].default_sql)}));
    }
  }
  return rows;
}

std::vector<Row> types(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  uint32_t ns = pg_catalog_oid(s);
  auto add = [&](TypeId t, uint32_t element, uint32_t array) {
    std::string category(1, static_cast<char>(type_category(t)));
    int len = type_len(t);
    bool by_value = len == 1 || len == 2 || len == 4 || len == 8;
    rows.push_back(make_row({oid(type_oid(t)), str(typname(t)), oid(ns), oid(kMzSystemRoleOid),
                             i2(len), str("b"), str(category), b(type_is_preferred(t)), oid(0), oid(element),
                             Datum::from_int32(-1), oid(collation_of(t)), b(false), oid(array), b(by_value),
                             b(true), str(","), oid(0), Datum::from_int32(0), Datum::null(),
                             str(io_function(t, "in")), str(io_function(t, "out")), str(io_function(t, "recv")),
                             str(io_function(t, "send")), str(alignment_of(t)), str(storage_of(t))}));
  };
  for (TypeId t : kAllTypes) {
    const TypeId array = array_type_of(t);
    add(t, 0, array == T::kUnknown ? 0 : type_oid(array));
    if (array != T::kUnknown) add(array, type_oid(t), 0);
  }
  return rows;
}

std::vector<Row> databases(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const std::string& name : s.databases()) {
    std::string acl = acl_elements(s, database_object(name), ObjectType::kDatabase);
    rows.push_back(make_row({oid(kMaterializeDatabaseOid), str(name),
                             oid(role_oid(owner_of(s, database_object(name), ObjectType::kDatabase))),
                             Datum::from_int32(6), str("c"), b(false), b(true), Datum::from_int32(-1), str("C"),
                             str("C"), Datum::null(), Datum::from_array(acl)}));
  }
  return rows;
}

std::vector<Row> indexes(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Item* item : s.items()) {
    const IndexDetails* d = item->index();
    if (d == nullptr) continue;
    int n = static_cast<int>(d->keys.size());
    rows.push_back(make_row({oid(item_oid(item->id)), oid(item_oid(d->on)), i2(n), i2(n), b(d->unique), b(false),
                             b(false), b(true), b(false), b(true), b(true), b(false), b(true), b(false),
                             Datum::null(), Datum::null()}));
  }
  for_each_table_key(s, [&](const Item& table, size_t k, const TableKey& key) {
    int n = static_cast<int>(key.columns.size());
    rows.push_back(make_row({oid(key_index_oid(table.id, k)), oid(item_oid(table.id)), i2(n), i2(n), b(true),
                             b(key.primary), b(false), b(true), b(false), b(true), b(true), b(false), b(true), b(false),
                             Datum::null(), Datum::null()}));
  });
  return rows;
}

std::vector<Row> roles(const CatalogSnapshot& s, const BuiltinContext& c) { return role_rows(s, c); }

std::vector<Row> users(const CatalogSnapshot& s, const BuiltinContext& c) { return user_rows(s, c); }

std::vector<Row> settings(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const auto& [name, value] : s.system_vars().all()) {
    const VarDefinition* def = find_system_var(name);
    rows.push_back(make_row({str(name), str(value), str(def ? std::string(def->description) : ""), str("string")}));
  }
  return rows;
}

std::vector<Row> collations(const CatalogSnapshot& s, const BuiltinContext&) {
  uint32_t ns = pg_catalog_oid(s);
  auto row = [&](uint32_t id, const char* name, const char* provider) {
    return make_row({oid(id), str(name), oid(ns), oid(kMzSystemRoleOid), str(provider), b(true),
                     Datum::from_int32(-1)});
  };
  return {row(kDefaultCollationOid, "default", "d"), row(950, "C", "c"), row(951, "POSIX", "c")};
}

std::vector<Row> empty(const CatalogSnapshot&, const BuiltinContext&) { return {}; }

std::vector<Row> access_methods(const CatalogSnapshot&, const BuiltinContext&) {
  return {make_row({oid(kHashAmOid), str("hash"), str("i")}), make_row({oid(kArrangementAmOid), str("arrangement"), str("i")})};
}

// information_schema

std::vector<Row> is_tables(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Item* item : s.items()) {
    if (!item->is_relation()) continue;
    std::string type = item->kind == ItemKind::kView || item->kind == ItemKind::kMaterializedView ? "VIEW" : "BASE TABLE";
    rows.push_back(make_row({str(kDefaultDatabase), str(item->name.schema), str(item->name.item), str(type)}));
  }
  return rows;
}

std::vector<Row> is_columns(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for_each_column(s, [&](const Item& item, size_t c, const Column& col, const TableColumnInfo* info) {
    std::optional<std::string> def = info ? info->default_sql : std::nullopt;
    int len = char_typmod_length(col.type.typmod);
    bool char_type = col.type.id == T::kVarchar || col.type.id == T::kBpchar;
    rows.push_back(make_row({str(kDefaultDatabase), str(item.name.schema), str(item.name.item), str(col.name),
                             Datum::from_int32(static_cast<int32_t>(c + 1)), text_or_null(def),
                             str(col.type.nullable ? "YES" : "NO"), str(std::string(type_name(col.type.id))),
                             char_type && len >= 0 ? Datum::from_int32(len) : Datum::null()}));
  });
  return rows;
}

std::vector<Row> is_schemata(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Schema* schema : s.schemas(kDefaultDatabase)) {
    rows.push_back(make_row({str(kDefaultDatabase), str(schema->name),
                             str(schema->is_system() ? "mz_system" : "materialize")}));
  }
  return rows;
}

}  // namespace

void add_pg_catalog_relations(std::vector<BuiltinRelation>& out) {
  const char* pg = kPgCatalogSchema;
  out.push_back({pg, "pg_namespace", {{"oid", T::kOid, false}, {"nspname", T::kText, false},
                                      {"nspowner", T::kOid, false}, {"nspacl", T::kTextArray, true}}, namespaces});
  out.push_back({pg, "pg_class",
                 {{"oid", T::kOid, false}, {"relname", T::kText, false}, {"relnamespace", T::kOid, false},
                  {"reltype", T::kOid, false}, {"reloftype", T::kOid, false}, {"relowner", T::kOid, false},
                  {"relam", T::kOid, false}, {"relfilenode", T::kOid, false}, {"reltablespace", T::kOid, false},
                  {"reltoastrelid", T::kOid, false}, {"relhasindex", T::kBool, false},
                  {"relpersistence", T::kText, false}, {"relkind", T::kText, false}, {"relnatts", T::kInt2, false},
                  {"relchecks", T::kInt2, false}, {"relhasrules", T::kBool, false},
                  {"relhastriggers", T::kBool, false}, {"relrowsecurity", T::kBool, false},
                  {"relforcerowsecurity", T::kBool, false}, {"relreplident", T::kText, false},
                  {"relispartition", T::kBool, false}, {"relhassubclass", T::kBool, false},
                  {"reloptions", T::kTextArray, true}, {"relacl", T::kTextArray, true},
                  {"relpartbound", T::kText, true}}, classes});
  out.push_back({pg, "pg_attribute",
                 {{"attrelid", T::kOid, false}, {"attname", T::kText, false}, {"atttypid", T::kOid, false},
                  {"attlen", T::kInt2, false}, {"attnum", T::kInt2, false}, {"atttypmod", T::kInt4, false},
                  {"attnotnull", T::kBool, false}, {"atthasdef", T::kBool, false}, {"attidentity", T::kText, false},
                  {"attgenerated", T::kText, false}, {"attisdropped", T::kBool, false},
                  {"attcollation", T::kOid, false}, {"attstorage", T::kText, false},
                  {"attcompression", T::kText, false}, {"attstattarget", T::kInt4, false},
                  {"attoptions", T::kTextArray, true}, {"attacl", T::kTextArray, true}}, attributes});
  out.push_back({pg, "pg_type",
                 {{"oid", T::kOid, false}, {"typname", T::kText, false}, {"typnamespace", T::kOid, false},
                  {"typowner", T::kOid, false}, {"typlen", T::kInt2, false}, {"typtype", T::kText, false},
                  {"typcategory", T::kText, false}, {"typispreferred", T::kBool, false}, {"typrelid", T::kOid, false},
                  {"typelem", T::kOid, false}, {"typtypmod", T::kInt4, false}, {"typcollation", T::kOid, false},
                  {"typnotnull", T::kBool, false}, {"typarray", T::kOid, false}, {"typbyval", T::kBool, false},
                  {"typisdefined", T::kBool, false}, {"typdelim", T::kText, false},
                  {"typbasetype", T::kOid, false}, {"typndims", T::kInt4, false}, {"typdefault", T::kText, true},
                  {"typinput", T::kText, false}, {"typoutput", T::kText, false}, {"typreceive", T::kText, false},
                  {"typsend", T::kText, false}, {"typalign", T::kText, false}, {"typstorage", T::kText, false}},
                 types});
  out.push_back({pg, "pg_database",
                 {{"oid", T::kOid, false}, {"datname", T::kText, false}, {"datdba", T::kOid, false},
                  {"encoding", T::kInt4, false}, {"datlocprovider", T::kText, false},
                  {"datistemplate", T::kBool, false}, {"datallowconn", T::kBool, false},
                  {"datconnlimit", T::kInt4, false}, {"datcollate", T::kText, false}, {"datctype", T::kText, false},
                  {"daticulocale", T::kText, true}, {"datacl", T::kTextArray, true}}, databases});
  out.push_back({pg, "pg_index",
                 {{"indexrelid", T::kOid, false}, {"indrelid", T::kOid, false}, {"indnatts", T::kInt2, false},
                  {"indnkeyatts", T::kInt2, false}, {"indisunique", T::kBool, false},
                  {"indisprimary", T::kBool, false}, {"indisclustered", T::kBool, false},
                  {"indisvalid", T::kBool, false}, {"indcheckxmin", T::kBool, false}, {"indisready", T::kBool, false},
                  {"indislive", T::kBool, false}, {"indisreplident", T::kBool, false},
                  {"indimmediate", T::kBool, false}, {"indnullsnotdistinct", T::kBool, false},
                  {"indexprs", T::kText, true}, {"indpred", T::kText, true}}, indexes});
  out.push_back({pg, "pg_am", {{"oid", T::kOid, false}, {"amname", T::kText, false}, {"amtype", T::kText, false}},
                 access_methods});
  out.push_back({pg, "pg_roles",
                 {{"oid", T::kOid, false}, {"rolname", T::kText, false}, {"rolsuper", T::kBool, false},
                  {"rolinherit", T::kBool, false}, {"rolcreaterole", T::kBool, false},
                  {"rolcreatedb", T::kBool, false}, {"rolcanlogin", T::kBool, false},
                  {"rolreplication", T::kBool, false}, {"rolconnlimit", T::kInt4, false},
                  {"rolpassword", T::kText, false}, {"rolvaliduntil", T::kTimestampTz, true},
                  {"rolbypassrls", T::kBool, false}}, roles});
  out.push_back({pg, "pg_user",
                 {{"usename", T::kText, false}, {"usesysid", T::kOid, false}, {"usecreatedb", T::kBool, false},
                  {"usesuper", T::kBool, false}, {"userepl", T::kBool, false}, {"usebypassrls", T::kBool, false},
                  {"passwd", T::kText, false}, {"valuntil", T::kTimestampTz, true}}, users});
  out.push_back({pg, "pg_settings", {{"name", T::kText, false}, {"setting", T::kText, false},
                                     {"short_desc", T::kText, false}, {"vartype", T::kText, false}}, settings});
  out.push_back({pg, "pg_description", {{"objoid", T::kOid, false}, {"classoid", T::kOid, false},
                                        {"objsubid", T::kInt4, false}, {"description", T::kText, false}}, empty});
  out.push_back({pg, "pg_attrdef", {{"adrelid", T::kOid, false}, {"adnum", T::kInt2, false},
                                    {"adbin", T::kText, false}}, attrdefs});
  out.push_back({pg, "pg_collation",
                 {{"oid", T::kOid, false}, {"collname", T::kText, false}, {"collnamespace", T::kOid, false},
                  {"collowner", T::kOid, false}, {"collprovider", T::kText, false},
                  {"collisdeterministic", T::kBool, false}, {"collencoding", T::kInt4, false}}, collations});
  out.push_back({pg, "pg_constraint",
                 {{"oid", T::kOid, false}, {"conname", T::kText, false}, {"connamespace", T::kOid, false},
                  {"contype", T::kText, false}, {"condeferrable", T::kBool, false}, {"condeferred", T::kBool, false},
                  {"conrelid", T::kOid, false}, {"conindid", T::kOid, false}}, key_constraint_rows});
  out.push_back({pg, "pg_inherits", {{"inhrelid", T::kOid, false}, {"inhparent", T::kOid, false},
                                     {"inhseqno", T::kInt4, false}, {"inhdetachpending", T::kBool, false}}, empty});
}

void add_information_schema_relations(std::vector<BuiltinRelation>& out) {
  const char* is = kInformationSchema;
  out.push_back({is, "tables", {{"table_catalog", T::kText, false}, {"table_schema", T::kText, false},
                                {"table_name", T::kText, false}, {"table_type", T::kText, false}}, is_tables});
  out.push_back({is, "columns",
                 {{"table_catalog", T::kText, false}, {"table_schema", T::kText, false},
                  {"table_name", T::kText, false}, {"column_name", T::kText, false},
                  {"ordinal_position", T::kInt4, false}, {"column_default", T::kText, true},
                  {"is_nullable", T::kText, false}, {"data_type", T::kText, false},
                  {"character_maximum_length", T::kInt4, true}}, is_columns});
  out.push_back({is, "schemata", {{"catalog_name", T::kText, false}, {"schema_name", T::kText, false},
                                  {"schema_owner", T::kText, false}}, is_schemata});
}

}  // namespace tandem::catalog::builtin_detail
