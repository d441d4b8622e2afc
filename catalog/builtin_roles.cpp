// Rows of the role and privilege relations: mz_catalog.mz_roles and
// mz_role_members, pg_catalog.pg_roles, pg_user and pg_auth_members, and
// mz_internal.mz_effective_privileges (tandem's: every privilege each role
// holds on each database, schema, relation and cluster, through ownership,
// membership, PUBLIC or superuser, and each role's MEMBER/USAGE of the
// roles it belongs to), over which has_table_privilege and its friends are
// defined (planner/binder/catalog_functions.cpp).
#include "catalog/builtin_relations.hpp"

namespace tandem::catalog::builtin_detail {
namespace {

using T = TypeId;

Datum str(const std::string& s) { return Datum::from_string(s); }
Datum oid(uint32_t v) { return Datum::from_oid(v); }
Datum b(bool v) { return Datum::from_bool(v); }

std::vector<Row> mz_roles(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Role* r : s.access().roles()) {
    rows.push_back(make_row({str(r->id.to_string()), oid(role_oid(r->id)), str(r->name), b(r->inherit),
                             b(r->login), b(r->superuser)}));
  }
  return rows;
}

std::vector<Row> mz_role_members(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const auto& m : s.access().memberships()) {
    rows.push_back(make_row({str(m.role.to_string()), str(m.member.to_string()), str(m.grantor.to_string())}));
  }
  return rows;
}

std::vector<Row> pg_roles(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Role* r : s.access().roles()) {
    bool super = r->superuser;
    rows.push_back(make_row({oid(role_oid(r->id)), str(r->name), b(super), b(r->inherit), b(super), b(super),
                             b(r->login), b(false), Datum::from_int32(-1), str("********"), Datum::null(),
                             b(super)}));
  }
  return rows;
}

std::vector<Row> pg_user(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Role* r : s.access().roles()) {
    if (!r->login) continue;
    bool super = r->superuser;
    rows.push_back(make_row({str(r->name), oid(role_oid(r->id)), b(super), b(super), b(false), b(super),
                             str("********"), Datum::null()}));
  }
  return rows;
}

std::vector<Row> pg_auth_members(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const auto& m : s.access().memberships()) {
    rows.push_back(make_row({oid(role_oid(m.role)), oid(role_oid(m.member)), oid(role_oid(m.grantor)), b(false)}));
  }
  return rows;
}

std::vector<Row> effective_privileges(const CatalogSnapshot& s, const BuiltinContext&) {
  const AccessControl& access = s.access();
  struct Object {
    std::string key;
    ObjectType type;
    const char* type_name;
    Datum oid;
    std::string name;
    bool everyone;  // system objects: SELECT/USAGE for every role
  };
  std::vector<Object> objects;
  for (const std::string& d : s.databases()) {
    objects.push_back({database_object(d), ObjectType::kDatabase, "DATABASE", oid(kMaterializeDatabaseOid), d, false});
  }
  for (const Schema* schema : s.schemas(kDefaultDatabase)) {
    objects.push_back({schema_object(schema->id), ObjectType::kSchema, "SCHEMA", oid(schema_oid(schema->id)),
                       schema->name, schema->is_system()});
  }
  for (const Item* item : s.items()) {
    if (!item->is_relation()) continue;
    objects.push_back({item_object(item->id), object_type_of(*item), "TABLE", oid(item_oid(item->id)),
                       item->name.item, item->id.is_system()});
  }
  for (const Cluster* c : s.clusters()) {
    objects.push_back({cluster_object(c->id), ObjectType::kCluster, "CLUSTER", Datum::null(), c->name, c->is_system()});
  }
  std::vector<Row> rows;
  for (const Role* r : access.roles()) {
    for (const Object& o : objects) {
      uint32_t all = all_privileges(o.type);
      for (uint32_t bit = 1; bit <= all; bit <<= 1) {
        if (!(all & bit)) continue;
        bool held = access.has_privileges(r->id, o.key, o.type, bit) ||
                    (o.everyone && (bit == privilege::kSelect || bit == privilege::kUsage));
        if (!held) continue;
        rows.push_back(make_row({oid(role_oid(r->id)), str(r->name), str(o.type_name), o.oid, str(o.name),
                                 str(privilege_name(bit))}));
      }
    }
    for (RoleId of : access.effective_roles(r->id)) {
      const Role* target = access.role(of);
      if (target == nullptr) continue;
      for (const char* p : {"MEMBER", "USAGE"}) {
        rows.push_back(make_row({oid(role_oid(r->id)), str(r->name), str("ROLE"), oid(role_oid(of)),
                                 str(target->name), str(p)}));
      }
    }
  }
  return rows;
}

}  // namespace

void add_role_relations(std::vector<BuiltinRelation>& out) {
  out.push_back({"mz_catalog", "mz_roles",
                 {{"id", T::kText, false}, {"oid", T::kOid, false}, {"name", T::kText, false},
                  {"inherit", T::kBool, false}, {"rolcanlogin", T::kBool, false}, {"rolsuper", T::kBool, false}},
                 mz_roles});
  out.push_back({"mz_catalog", "mz_role_members",
                 {{"role_id", T::kText, false}, {"member", T::kText, false}, {"grantor", T::kText, false}},
                 mz_role_members});
  out.push_back({"pg_catalog", "pg_auth_members",
                 {{"roleid", T::kOid, false}, {"member", T::kOid, false}, {"grantor", T::kOid, false},
                  {"admin_option", T::kBool, false}},
                 pg_auth_members});
  out.push_back({"mz_internal", "mz_effective_privileges",
                 {{"role_oid", T::kOid, false}, {"role_name", T::kText, false}, {"object_type", T::kText, false},
                  {"object_oid", T::kOid, true}, {"object_name", T::kText, false},
                  {"privilege_type", T::kText, false}},
                 effective_privileges});
}

std::vector<Row> role_rows(const CatalogSnapshot& s, const BuiltinContext& c) { return pg_roles(s, c); }
std::vector<Row> user_rows(const CatalogSnapshot& s, const BuiltinContext& c) { return pg_user(s, c); }

}  // namespace tandem::catalog::builtin_detail
