#include "planner/binder/catalog_functions.hpp"

#include <map>

#include "planner/parser/parser.hpp"
#include "planner/parser/printer.hpp"

namespace tandem::planner {
namespace {

// Aliases inside definitions start with mz_ so they cannot capture a column
// the caller's arguments name.
const std::map<std::pair<std::string, size_t>, std::string>& definitions() {
  static const std::map<std::pair<std::string, size_t>, std::string> defs = {
      {{"pg_table_is_visible", 1},
       "$1 IN (SELECT mz_c.oid FROM pg_catalog.pg_class mz_c JOIN mz_internal.mz_search_path_schemas mz_p "
       "ON mz_p.schema_oid = mz_c.relnamespace)"},
      {{"pg_type_is_visible", 1}, "$1 IN (SELECT mz_t.oid FROM pg_catalog.pg_type mz_t)"},
      {{"pg_get_userbyid", 1},
       "COALESCE((SELECT mz_r.rolname FROM pg_catalog.pg_roles mz_r WHERE mz_r.oid = $1), "
       "'unknown (OID=' || CAST($1 AS text) || ')')"},
      {{"obj_description", 1},
       "(SELECT mz_d.description FROM pg_catalog.pg_description mz_d WHERE mz_d.objoid = $1 AND mz_d.objsubid = 0)"},
      {{"obj_description", 2},
       "(SELECT mz_d.description FROM pg_catalog.pg_description mz_d WHERE mz_d.objoid = $1 AND mz_d.objsubid = 0)"},
      {{"col_description", 2},
       "(SELECT mz_d.description FROM pg_catalog.pg_description mz_d WHERE mz_d.objoid = $1 AND mz_d.objsubid = $2)"},
      // Indexes, and the hash indexes enforcing table keys (mz_table_keys).
      {{"pg_get_indexdef", 1},
       "COALESCE((SELECT mz_i.create_sql FROM mz_catalog.mz_indexes mz_i WHERE mz_i.oid = $1), "
       "(SELECT mz_k.index_definition FROM mz_internal.mz_table_keys mz_k WHERE mz_k.index_oid = $1))"},
      {{"pg_get_indexdef", 3},
       "CASE WHEN $2 = 0 THEN COALESCE((SELECT mz_i.create_sql FROM mz_catalog.mz_indexes mz_i WHERE mz_i.oid = $1), "
       "(SELECT mz_k.index_definition FROM mz_internal.mz_table_keys mz_k WHERE mz_k.index_oid = $1)) "
       "ELSE COALESCE((SELECT COALESCE(mz_k.on_expression, mz_col.name) FROM mz_catalog.mz_indexes mz_i "
       "JOIN mz_catalog.mz_index_columns mz_k ON mz_k.index_id = mz_i.id "
       "LEFT JOIN mz_catalog.mz_columns mz_col ON mz_col.id = mz_i.on_id AND mz_col.position = mz_k.on_position "
       "WHERE mz_i.oid = $1 AND mz_k.index_position = $2), "
       "(SELECT split_part(mz_k.columns, ', ', $2) FROM mz_internal.mz_table_keys mz_k "
       "WHERE mz_k.index_oid = $1 AND $2 > 0)) END"},
      {{"pg_get_viewdef", 1},
       "(SELECT mz_v.definition FROM (SELECT oid, definition FROM mz_catalog.mz_views UNION ALL "
       "SELECT oid, definition FROM mz_catalog.mz_materialized_views) mz_v WHERE mz_v.oid = $1)"},
      {{"pg_get_viewdef", 2},
       "(SELECT mz_v.definition FROM (SELECT oid, definition FROM mz_catalog.mz_views UNION ALL "
       "SELECT oid, definition FROM mz_catalog.mz_materialized_views) mz_v WHERE mz_v.oid = $1)"},
      {{"pg_get_constraintdef", 1},
       "(SELECT mz_k.constraint_definition FROM mz_internal.mz_table_keys mz_k WHERE mz_k.constraint_oid = $1)"},
      {{"pg_get_constraintdef", 2},
       "(SELECT mz_k.constraint_definition FROM mz_internal.mz_table_keys mz_k WHERE mz_k.constraint_oid = $1)"},
      // pg_attrdef.adbin holds the expression as SQL text.
      {{"pg_get_expr", 2}, "CAST($1 AS text)"},
      {{"pg_get_expr", 3}, "CAST($1 AS text)"},
      // The search path's existing schemas; with true, also the implicit
      // pg_catalog searched first.
      {{"current_schemas", 1},
       "ARRAY(SELECT mz_s.name FROM mz_internal.mz_search_path_schemas mz_s "
       "WHERE $1 OR NOT mz_s.implicit ORDER BY mz_s.position)"},
      // Sizes: a table's or materialized view's stored shard bytes
      // (mz_shard_storage); 0 for a relation without a shard (views, and
      // indexes, which live in memory); NULL for an unknown OID.
      {{"pg_relation_size", 1}, "CASE WHEN $1 IN (SELECT mz_c.oid FROM pg_catalog.pg_class mz_c) THEN COALESCE((SELECT CAST(sum(mz_s.stored_bytes) AS bigint) FROM mz_internal.mz_shard_storage mz_s JOIN mz_catalog.mz_objects mz_o ON mz_o.id = mz_s.object_id WHERE mz_o.oid = $1), CAST(0 AS bigint)) END"},
      {{"pg_relation_size", 2}, "CASE WHEN $1 IN (SELECT mz_c.oid FROM pg_catalog.pg_class mz_c) THEN COALESCE((SELECT CAST(sum(mz_s.stored_bytes) AS bigint) FROM mz_internal.mz_shard_storage mz_s JOIN mz_catalog.mz_objects mz_o ON mz_o.id = mz_s.object_id WHERE mz_o.oid = $1), CAST(0 AS bigint)) END"},
      {{"pg_table_size", 1}, "CASE WHEN $1 IN (SELECT mz_c.oid FROM pg_catalog.pg_class mz_c) THEN COALESCE((SELECT CAST(sum(mz_s.stored_bytes) AS bigint) FROM mz_internal.mz_shard_storage mz_s JOIN mz_catalog.mz_objects mz_o ON mz_o.id = mz_s.object_id WHERE mz_o.oid = $1), CAST(0 AS bigint)) END"},
      {{"pg_total_relation_size", 1}, "CASE WHEN $1 IN (SELECT mz_c.oid FROM pg_catalog.pg_class mz_c) THEN COALESCE((SELECT CAST(sum(mz_s.stored_bytes) AS bigint) FROM mz_internal.mz_shard_storage mz_s JOIN mz_catalog.mz_objects mz_o ON mz_o.id = mz_s.object_id WHERE mz_o.oid = $1), CAST(0 AS bigint)) END"},
      {{"pg_indexes_size", 1},
       "CASE WHEN $1 IN (SELECT mz_c.oid FROM pg_catalog.pg_class mz_c) THEN CAST(0 AS bigint) END"},
      // PostgreSQL's rounding: bytes below 10 kB, then the unit at which
      // the value is below 20480, rounded half away from zero.
      {{"pg_size_pretty", 1},
       "CASE WHEN abs($1) < 10240 THEN CAST($1 AS text) || ' bytes' WHEN abs($1 >> 9) < 20479 THEN CAST(((($1 >> 9) + CASE WHEN ($1 >> 9) < 0 THEN -1 ELSE 1 END) / 2) AS text) || ' kB' WHEN abs($1 >> 19) < 20479 THEN CAST(((($1 >> 19) + CASE WHEN ($1 >> 19) < 0 THEN -1 ELSE 1 END) / 2) AS text) || ' MB' WHEN abs($1 >> 29) < 20479 THEN CAST(((($1 >> 29) + CASE WHEN ($1 >> 29) < 0 THEN -1 ELSE 1 END) / 2) AS text) || ' GB' WHEN abs($1 >> 39) < 20479 THEN CAST(((($1 >> 39) + CASE WHEN ($1 >> 39) < 0 THEN -1 ELSE 1 END) / 2) AS text) || ' TB' ELSE CAST(((($1 >> 49) + CASE WHEN ($1 >> 49) < 0 THEN -1 ELSE 1 END) / 2) AS text) || ' PB' END"},
      // Privileges over mz_internal.mz_effective_privileges (builtin_roles.cpp);
      // a privilege list ('SELECT, INSERT') asks for any of them, as PostgreSQL.
      {{"has_table_privilege", 2},
       "EXISTS (SELECT 1 FROM mz_internal.mz_effective_privileges mz_p WHERE mz_p.role_name = current_user AND mz_p.object_type = 'TABLE' AND mz_p.object_oid = CAST($1 AS regclass) AND mz_p.privilege_type = ANY (string_to_array(upper(replace($2, ' ', '')), ',')))"},
      {{"has_table_privilege", 3},
       "EXISTS (SELECT 1 FROM mz_internal.mz_effective_privileges mz_p WHERE (mz_p.role_name = CAST($1 AS text) OR CAST(mz_p.role_oid AS text) = CAST($1 AS text)) AND mz_p.object_type = 'TABLE' AND mz_p.object_oid = CAST($2 AS regclass) AND mz_p.privilege_type = ANY (string_to_array(upper(replace($3, ' ', '')), ',')))"},
      {{"has_schema_privilege", 2},
       "EXISTS (SELECT 1 FROM mz_internal.mz_effective_privileges mz_p WHERE mz_p.role_name = current_user AND mz_p.object_type = 'SCHEMA' AND (mz_p.object_name = CAST($1 AS text) OR CAST(mz_p.object_oid AS text) = CAST($1 AS text)) AND mz_p.privilege_type = ANY (string_to_array(upper(replace($2, ' ', '')), ',')))"},
      {{"has_schema_privilege", 3},
       "EXISTS (SELECT 1 FROM mz_internal.mz_effective_privileges mz_p WHERE (mz_p.role_name = CAST($1 AS text) OR CAST(mz_p.role_oid AS text) = CAST($1 AS text)) AND mz_p.object_type = 'SCHEMA' AND (mz_p.object_name = CAST($2 AS text) OR CAST(mz_p.object_oid AS text) = CAST($2 AS text)) AND mz_p.privilege_type = ANY (string_to_array(upper(replace($3, ' ', '')), ',')))"},
      {{"has_database_privilege", 2},
       "EXISTS (SELECT 1 FROM mz_internal.mz_effective_privileges mz_p WHERE mz_p.role_name = current_user AND mz_p.object_type = 'DATABASE' AND (mz_p.object_name = CAST($1 AS text) OR CAST(mz_p.object_oid AS text) = CAST($1 AS text)) AND mz_p.privilege_type = ANY (string_to_array(upper(replace($2, ' ', '')), ',')))"},
      {{"has_database_privilege", 3},
       "EXISTS (SELECT 1 FROM mz_internal.mz_effective_privileges mz_p WHERE (mz_p.role_name = CAST($1 AS text) OR CAST(mz_p.role_oid AS text) = CAST($1 AS text)) AND mz_p.object_type = 'DATABASE' AND (mz_p.object_name = CAST($2 AS text) OR CAST(mz_p.object_oid AS text) = CAST($2 AS text)) AND mz_p.privilege_type = ANY (string_to_array(upper(replace($3, ' ', '')), ',')))"},
      {{"has_cluster_privilege", 2},
       "EXISTS (SELECT 1 FROM mz_internal.mz_effective_privileges mz_p WHERE mz_p.role_name = current_user AND mz_p.object_type = 'CLUSTER' AND (mz_p.object_name = CAST($1 AS text) OR CAST(mz_p.object_oid AS text) = CAST($1 AS text)) AND mz_p.privilege_type = ANY (string_to_array(upper(replace($2, ' ', '')), ',')))"},
      {{"has_cluster_privilege", 3},
       "EXISTS (SELECT 1 FROM mz_internal.mz_effective_privileges mz_p WHERE (mz_p.role_name = CAST($1 AS text) OR CAST(mz_p.role_oid AS text) = CAST($1 AS text)) AND mz_p.object_type = 'CLUSTER' AND (mz_p.object_name = CAST($2 AS text) OR CAST(mz_p.object_oid AS text) = CAST($2 AS text)) AND mz_p.privilege_type = ANY (string_to_array(upper(replace($3, ' ', '')), ',')))"},
      {{"pg_has_role", 2},
       "EXISTS (SELECT 1 FROM mz_internal.mz_effective_privileges mz_p WHERE mz_p.role_name = current_user AND mz_p.object_type = 'ROLE' AND (mz_p.object_name = CAST($1 AS text) OR CAST(mz_p.object_oid AS text) = CAST($1 AS text)) AND mz_p.privilege_type = ANY (string_to_array(upper(replace($2, ' ', '')), ',')))"},
      {{"pg_has_role", 3},
       "EXISTS (SELECT 1 FROM mz_internal.mz_effective_privileges mz_p WHERE (mz_p.role_name = CAST($1 AS text) OR CAST(mz_p.role_oid AS text) = CAST($1 AS text)) AND mz_p.object_type = 'ROLE' AND (mz_p.object_name = CAST($2 AS text) OR CAST(mz_p.object_oid AS text) = CAST($2 AS text)) AND mz_p.privilege_type = ANY (string_to_array(upper(replace($3, ' ', '')), ',')))"},
      {{"mz_is_superuser", 0},
       "EXISTS (SELECT 1 FROM pg_catalog.pg_roles mz_r WHERE mz_r.rolname = current_user AND mz_r.rolsuper)"},
      {{"pg_encoding_to_char", 1}, "CASE $1 WHEN 6 THEN 'UTF8' ELSE '' END"},
      // User tables are what a publication could publish (not the catalog).
      {{"pg_relation_is_publishable", 1},
       "$1 IN (SELECT mz_t.oid FROM mz_catalog.mz_tables mz_t WHERE mz_t.id LIKE 'u%')"},
      // The columns of an extended statistics object; there are none
      // (pg_statistic_ext is empty), so NULL as for an unknown OID.
      {{"pg_get_statisticsobjdef_columns", 1},
       "(SELECT CAST(NULL AS text) FROM pg_catalog.pg_statistic_ext mz_s WHERE mz_s.oid = $1)"},
  };
  return defs;
}

}  // namespace

std::optional<std::string> catalog_function_sql(const std::vector<std::string>& name, size_t nargs) {
  if (name.empty() || name.size() > 2 || (name.size() == 2 && name[0] != "pg_catalog")) return std::nullopt;
  auto it = definitions().find({name.back(), nargs});
  if (it == definitions().end()) return std::nullopt;
  return it->second;
}

std::string reg_type_name(const sql::TypeName& type) {
  if (type.array_dims != 0 || type.name.empty() || type.name.size() > 2) return "";
  if (type.name.size() == 2 && type.name[0] != "pg_catalog") return "";
  const std::string& n = type.name.back();
  return n == "regclass" || n == "regnamespace" || n == "regtype" ? n : "";
}

std::optional<std::string> reg_cast_sql(const sql::TypeName& type) {
  std::string reg = reg_type_name(type);
  if (reg == "regclass") return "(SELECT mz_c.relname FROM pg_catalog.pg_class mz_c WHERE mz_c.oid = $1)";
  if (reg == "regnamespace") {
    return "(SELECT mz_n.nspname FROM pg_catalog.pg_namespace mz_n WHERE mz_n.oid = $1)";
  }
  if (reg == "regtype") return "pg_catalog.format_type($1, NULL)";
  return std::nullopt;
}

std::optional<std::string> reg_lookup_sql(const sql::TypeName& type) {
  std::string reg = reg_type_name(type);
  if (reg == "regclass") {
    return "(SELECT mz_c.oid FROM pg_catalog.pg_class mz_c JOIN pg_catalog.pg_namespace mz_n "
           "ON mz_n.oid = mz_c.relnamespace WHERE (mz_c.relname = $1 AND pg_catalog.pg_table_is_visible(mz_c.oid)) "
           "OR mz_n.nspname || '.' || mz_c.relname = $1 ORDER BY mz_c.oid LIMIT 1)";
  }
  if (reg == "regnamespace") {
    return "(SELECT mz_n.oid FROM pg_catalog.pg_namespace mz_n WHERE mz_n.nspname = $1)";
  }
  if (reg == "regtype") {
    return "(SELECT mz_t.oid FROM pg_catalog.pg_type mz_t WHERE mz_t.typname = $1 "
           "OR pg_catalog.format_type(mz_t.oid, NULL) = $1 ORDER BY mz_t.oid LIMIT 1)";
  }
  return std::nullopt;
}

Result<sql::Expr> expand_definition(std::string_view definition, const std::vector<const sql::Expr*>& args) {
  std::string text;
  for (size_t i = 0; i < definition.size(); ++i) {
    if (definition[i] == '$' && i + 1 < definition.size() && definition[i + 1] >= '1' && definition[i + 1] <= '9') {
      size_t n = static_cast<size_t>(definition[i + 1] - '1');
      text += "(" + (n < args.size() ? sql::print(*args[n]) : std::string("NULL")) + ")";
      ++i;
    } else {
      text += definition[i];
    }
  }
  return sql::parse_expression(text);
}

bool is_supported_collation(const std::vector<std::string>& collation) {
  if (collation.empty() || collation.size() > 2) return false;
  if (collation.size() == 2 && collation[0] != "pg_catalog") return false;
  const std::string& c = collation.back();
  return c == "default" || c == "C" || c == "POSIX" || c == "c" || c == "posix";
}

}  // namespace tandem::planner
