#include "frontend/adapter/privileges.hpp"

#include <limits>
#include <set>

#include "frontend/adapter/catalog_ops.hpp"
#include "planner/parser/name_rewrite.hpp"

namespace tandem::frontend {
namespace {

using catalog::AccessControl;
using catalog::ObjectType;
using catalog::RoleId;
namespace privilege = catalog::privilege;

std::string quoted_name(const catalog::Item& item) { return "\"" + item.name.to_string() + "\""; }

class Checker {
 public:
  Checker(const catalog::CatalogSnapshot& s, const std::string& user, const catalog::SearchPath& path,
          const std::string& cluster)
      : s_(s), access_(s.access()), user_(user), role_(session_role(s, user)), path_(path), cluster_(cluster) {}

  Status check(const sql::Statement& st) {
    if (access_.is_superuser(role_)) return Status::ok();
    const auto& n = st.node;
    if (auto* x = std::get_if<sql::SelectStatement>(&n)) return reads(x->query);
    if (auto* x = std::get_if<sql::Declare>(&n)) return check(*x->statement);
    if (auto* x = std::get_if<sql::Subscribe>(&n)) return subscribe(*x);
    if (auto* x = std::get_if<sql::Copy>(&n)) {
      if (x->subscribe) return subscribe(*x->subscribe);
      if (x->query) return reads(*x->query);
      if (!x->table) return Status::ok();
      if (x->direction == sql::Copy::Direction::kFrom) return on_table(*x->table, privilege::kInsert);
      return reads(select_from(*x->table, nullptr));
    }
    if (auto* x = std::get_if<sql::Insert>(&n)) {
      TANDEM_RETURN_IF_ERROR(on_table(x->table, privilege::kInsert));
      return x->query ? reads(*x->query) : Status::ok();
    }
    if (auto* x = std::get_if<sql::Update>(&n)) {
      TANDEM_RETURN_IF_ERROR(on_table(x->table, privilege::kUpdate));
      return reads(select_from(x->table, x->where ? &*x->where : nullptr));
    }
    if (auto* x = std::get_if<sql::Delete>(&n)) {
      TANDEM_RETURN_IF_ERROR(on_table(x->table, privilege::kDelete));
      return reads(select_from(x->table, x->where ? &*x->where : nullptr));
    }
    if (auto* x = std::get_if<sql::Truncate>(&n)) {
      for (const auto& t : x->tables) TANDEM_RETURN_IF_ERROR(on_table(t, privilege::kDelete));
      return Status::ok();
    }
    if (auto* x = std::get_if<sql::CreateTable>(&n)) return create_in_schema(x->name);
    if (auto* x = std::get_if<sql::CreateView>(&n)) {
      TANDEM_RETURN_IF_ERROR(create_in_schema(x->name));
      return replaced(x->name, x->or_replace);
    }
    if (auto* x = std::get_if<sql::CreateMaterializedView>(&n)) {
      TANDEM_RETURN_IF_ERROR(create_in_schema(x->name));
      TANDEM_RETURN_IF_ERROR(create_on_cluster(x->in_cluster.empty() ? cluster_ : x->in_cluster));
      TANDEM_RETURN_IF_ERROR(replaced(x->name, x->or_replace));
      return reads(x->query);
    }
    if (auto* x = std::get_if<sql::CreateIndex>(&n)) {
      auto on = s_.resolve_item(partial_name(x->on), path_);
      if (!on.ok()) return Status::ok();  // the DDL reports it
      TANDEM_RETURN_IF_ERROR(owner_of_item(**on));
      TANDEM_RETURN_IF_ERROR(create_in_schema_of(**on));
      return create_on_cluster(x->in_cluster.empty() ? cluster_ : x->in_cluster);
    }
    if (std::get_if<sql::CreateCluster>(&n)) {
      if (access_.has_privileges(role_, catalog::system_object(), ObjectType::kSystem, privilege::kCreateCluster)) {
        return Status::ok();
      }
      return denied_attribute("CREATECLUSTER");
    }
    if (auto* x = std::get_if<sql::DropObjects>(&n)) return drop(*x);
    if (auto* x = std::get_if<sql::AlterRename>(&n)) return owner_of_named(x->type, x->name);
    if (auto* x = std::get_if<sql::AlterTableAddConstraint>(&n)) return owner_of_named(sql::ObjectType::kTable, x->name);
    if (auto* x = std::get_if<sql::AlterOwner>(&n)) {
      TANDEM_RETURN_IF_ERROR(owner_of_named(x->type, x->name));
      const catalog::Role* to = access_.find_role(x->new_owner);
      if (to != nullptr && !access_.is_member(role_, to->id)) {
        return Status::error(sqlstate::kInsufficientPrivilege, "must be a member of role \"" + to->name + "\"");
      }
      return Status::ok();
    }
    if (std::get_if<sql::AlterSystemSet>(&n) || std::get_if<sql::AlterSystemReset>(&n)) {
      return Status::error(sqlstate::kInsufficientPrivilege, "permission denied to alter system")
          .with_detail("You must be the 'mz_system' role");
    }
    if (auto* x = std::get_if<sql::CreateRole>(&n)) return create_role(x->options);
    if (auto* x = std::get_if<sql::AlterRole>(&n)) return create_role(x->options);
    if (std::get_if<sql::DropRole>(&n) || std::get_if<sql::GrantRole>(&n)) return create_role({});
    if (auto* x = std::get_if<sql::GrantPrivileges>(&n)) return grant(*x);
    return Status::ok();
  }

 private:
  // SELECT ... FROM table [WHERE where]: the reads of UPDATE/DELETE/COPY TO.
  static sql::Query select_from(const sql::ObjectName& table, const sql::Expr* where) {
    sql::Select select;
    sql::TableRef ref;
    ref.node = sql::TableName{table, std::nullopt};
    select.from.push_back(std::move(ref));
    if (where != nullptr) select.where = *where;
    sql::Query q;
    q.body.node = std::move(select);
    return q;
  }

  Status denied(const catalog::Item& item, uint32_t bits) const {
    std::string type = catalog::object_type_name(catalog::object_type_of(item));
    return Status::error(sqlstate::kInsufficientPrivilege, "permission denied for " + type + " " + quoted_name(item))
        .with_detail("The '" + user_ + "' role needs " + catalog::privilege_name(bits) + " privileges on " + type +
                     " " + quoted_name(item));
  }
  Status denied_object(const std::string& type, const std::string& name, uint32_t bits) const {
    return Status::error(sqlstate::kInsufficientPrivilege, "permission denied for " + type + " \"" + name + "\"")
        .with_detail("The '" + user_ + "' role needs " + catalog::privilege_name(bits) + " privileges on " + type +
                     " \"" + name + "\"");
  }
  Status denied_attribute(const std::string& what) const {
    return Status::error(sqlstate::kInsufficientPrivilege, "permission denied to " +
                                                               std::string(what == "CREATECLUSTER" ? "create cluster"
                                                                                                   : "create role"))
        .with_detail("The '" + user_ + "' role needs " + what + " privileges on SYSTEM");
  }
  Status not_owner(const std::string& type, const std::string& name) const {
    return Status::error(sqlstate::kInsufficientPrivilege, "must be owner of " + type + " " + name);
  }

  Status schema_usage(const catalog::Item& item) const {
    const catalog::Schema* schema = s_.find_schema(item.name.database, item.name.schema);
    if (schema == nullptr || schema->is_system()) return Status::ok();
    if (access_.has_privileges(role_, catalog::schema_object(schema->id), ObjectType::kSchema, privilege::kUsage)) {
      return Status::ok();
    }
    return denied_object("SCHEMA", schema->to_string(), privilege::kUsage);
  }

  // `role` may read `item`: SELECT on it; through a view, its owner may
  // read what the view reads.
  bool may_read(RoleId role, const catalog::Item& item, int depth) const {
    if (item.id.is_system() || depth > 64) return true;
    std::string key = catalog::item_object(item.id);
    ObjectType type = catalog::object_type_of(item);
    if (!access_.has_privileges(role, key, type, privilege::kSelect)) return false;
    if (item.kind != catalog::ItemKind::kView) return true;
    RoleId owner = access_.acl(key, type).owner;
    for (catalog::ItemId dep : item.dependencies) {
      const catalog::Item* d = s_.item(dep);
      if (d != nullptr && !may_read(owner, *d, depth + 1)) return false;
    }
    return true;
  }

  Status reads(const sql::Query& query) {
    bool any_user = false;
    for (const auto& parts : sql::object_references(query)) {
      sql::ObjectName name;
      name.parts = parts;
      auto item = s_.resolve_item(partial_name(name), path_);
      if (!item.ok()) continue;  // a CTE's name, or an error planning reports
      const catalog::Item& it = **item;
      if (it.id.is_system()) continue;
      any_user = true;
      TANDEM_RETURN_IF_ERROR(schema_usage(it));
      if (!access_.has_privileges(role_, catalog::item_object(it.id), catalog::object_type_of(it),
                                  privilege::kSelect)) {
        return denied(it, privilege::kSelect);
      }
      if (!may_read(role_, it, 0)) {
        return Status::error(sqlstate::kInsufficientPrivilege,
                             "permission denied for " + std::string(catalog::object_type_name(catalog::object_type_of(it))) +
                                 " " + quoted_name(it))
            .with_detail("The owner of " + quoted_name(it) + " may not read what it reads");
      }
    }
    if (any_user) return cluster_usage(cluster_);
    return Status::ok();
  }

  Status subscribe(const sql::Subscribe& sub) {
    if (sub.query) return reads(*sub.query);
    if (sub.object) return reads(select_from(*sub.object, nullptr));
    return Status::ok();
  }

  Status cluster_usage(const std::string& name) const {
    const catalog::Cluster* c = s_.find_cluster(name);
    if (c == nullptr || c->is_system()) return Status::ok();
    if (access_.has_privileges(role_, catalog::cluster_object(c->id), ObjectType::kCluster, privilege::kUsage)) {
      return Status::ok();
    }
    return denied_object("CLUSTER", c->name, privilege::kUsage);
  }

  Status create_on_cluster(const std::string& name) const {
    const catalog::Cluster* c = s_.find_cluster(name);
    if (c == nullptr || c->is_system()) return Status::ok();
    if (access_.has_privileges(role_, catalog::cluster_object(c->id), ObjectType::kCluster, privilege::kCreate)) {
      return Status::ok();
    }
    return denied_object("CLUSTER", c->name, privilege::kCreate);
  }

  Status on_table(const sql::ObjectName& name, uint32_t bits) const {
    auto item = s_.resolve_item(partial_name(name), path_);
    if (!item.ok() || (*item)->id.is_system()) return Status::ok();  // execution reports it
    TANDEM_RETURN_IF_ERROR(schema_usage(**item));
    if (access_.has_privileges(role_, catalog::item_object((*item)->id), catalog::object_type_of(**item), bits)) {
      return Status::ok();
    }
    return denied(**item, bits);
  }

  Status create_in_schema_of(const catalog::Item& item) const {
    const catalog::Schema* schema = s_.find_schema(item.name.database, item.name.schema);
    if (schema == nullptr || schema->is_system()) return Status::ok();
    if (access_.has_privileges(role_, catalog::schema_object(schema->id), ObjectType::kSchema, privilege::kCreate)) {
      return Status::ok();
    }
    return denied_object("SCHEMA", schema->to_string(), privilege::kCreate);
  }

  Status create_in_schema(const sql::ObjectName& name) const {
    const auto& parts = name.parts;
    std::optional<std::string> db = parts.size() == 3 ? std::optional<std::string>(parts[0]) : std::nullopt;
    std::string schema_name = parts.size() >= 2 ? parts[parts.size() - 2]
                              : path_.schemas.empty() ? std::string(catalog::kPublicSchema)
                                                      : path_.schemas.front();
    auto schema = s_.resolve_schema(db, schema_name, path_);
    if (!schema.ok() || (*schema)->is_system()) return Status::ok();  // the DDL reports it
    if (access_.has_privileges(role_, catalog::schema_object((*schema)->id), ObjectType::kSchema,
                               privilege::kCreate)) {
      return Status::ok();
    }
    return denied_object("SCHEMA", (*schema)->to_string(), privilege::kCreate);
  }

  // CREATE OR REPLACE drops the old item: only its owner may.
  Status replaced(const sql::ObjectName& name, bool or_replace) const {
    if (!or_replace) return Status::ok();
    auto item = s_.resolve_item(partial_name(name), path_);
    if (!item.ok()) return Status::ok();
    return owner_of_item(**item);
  }

  Status owner_of_item(const catalog::Item& item) const {
    if (item.id.is_system()) return Status::ok();  // the catalog refuses it
    if (access_.is_owner(role_, catalog::item_object(item.id), catalog::object_type_of(item))) return Status::ok();
    return not_owner(catalog::object_type_name(catalog::object_type_of(item)), item.name.to_string());
  }

  Status owner_of_cluster(const std::string& name) const {
    const catalog::Cluster* c = s_.find_cluster(name);
    if (c == nullptr || c->is_system()) return Status::ok();
    if (access_.is_owner(role_, catalog::cluster_object(c->id), ObjectType::kCluster)) return Status::ok();
    return not_owner("CLUSTER", c->name);
  }

  Status owner_of_schema(const sql::ObjectName& name) const {
    const auto& parts = name.parts;
    std::optional<std::string> db = parts.size() == 2 ? std::optional<std::string>(parts[0]) : std::nullopt;
    auto schema = s_.resolve_schema(db, parts.back(), path_);
    if (!schema.ok() || (*schema)->is_system()) return Status::ok();
    if (access_.is_owner(role_, catalog::schema_object((*schema)->id), ObjectType::kSchema)) return Status::ok();
    return not_owner("SCHEMA", (*schema)->to_string());
  }

  Status owner_of_named(sql::ObjectType type, const sql::ObjectName& name) const {
    if (type == sql::ObjectType::kCluster) return owner_of_cluster(name.parts.back());
    if (type == sql::ObjectType::kSchema) return owner_of_schema(name);
    if (type == sql::ObjectType::kClusterReplica) {
      return name.parts.empty() ? Status::ok() : owner_of_cluster(name.parts.front());
    }
    auto item = s_.resolve_item(partial_name(name), path_);
    if (!item.ok()) return Status::ok();
    return owner_of_item(**item);
  }

  // The items a DROP of `ids` removes with CASCADE.
  void dependents(catalog::ItemId id, std::set<catalog::ItemId>& out) const {
    for (catalog::ItemId d : s_.dependents(id)) {
      if (out.insert(d).second) dependents(d, out);
    }
  }

  Status drop(const sql::DropObjects& d) const {
    for (const auto& name : d.names) {
      if (d.type == sql::ObjectType::kCluster && !name.parts.empty()) {
        TANDEM_RETURN_IF_ERROR(owner_of_cluster(name.parts.back()));
        const catalog::Cluster* c = s_.find_cluster(name.parts.back());
        if (c != nullptr && d.cascade) {
          for (const catalog::Item* item : s_.items_in_cluster(c->id)) TANDEM_RETURN_IF_ERROR(owner_of_item(*item));
        }
        continue;
      }
      TANDEM_RETURN_IF_ERROR(owner_of_named(d.type, name));
      if (d.type == sql::ObjectType::kSchema || d.type == sql::ObjectType::kClusterReplica) continue;
      auto item = s_.resolve_item(partial_name(name), path_);
      if (!item.ok()) continue;
      std::set<catalog::ItemId> deps;
      dependents((*item)->id, deps);
      for (catalog::ItemId id : deps) {
        const catalog::Item* dep = s_.item(id);
        // Indexes go with what they index (RESTRICT too); other dependents
        // only with CASCADE (RESTRICT reports them).
        if (dep != nullptr && (d.cascade || dep->kind == catalog::ItemKind::kIndex)) {
          TANDEM_RETURN_IF_ERROR(owner_of_item(*dep));
        }
      }
    }
    return Status::ok();
  }

  Status create_role(const sql::RoleOptions& options) const {
    if (options.superuser.value_or(false)) {
      return Status::error(sqlstate::kInsufficientPrivilege, "permission denied to create superuser role")
          .with_detail("You must be a superuser to grant the SUPERUSER attribute");
    }
    if (access_.has_privileges(role_, catalog::system_object(), ObjectType::kSystem, privilege::kCreateRole)) {
      return Status::ok();
    }
    return denied_attribute("CREATEROLE");
  }

  Status grant(const sql::GrantPrivileges& g) const {
    using Target = sql::GrantPrivileges::Target;
    if (g.target == Target::kSystem) {
      return Status::error(sqlstate::kInsufficientPrivilege, "permission denied to grant privileges on SYSTEM")
          .with_detail("You must be a superuser");
    }
    for (const auto& name : g.objects) {
      switch (g.target) {
        case Target::kTable: TANDEM_RETURN_IF_ERROR(owner_of_named(sql::ObjectType::kTable, name)); break;
        case Target::kSchema: TANDEM_RETURN_IF_ERROR(owner_of_schema(name)); break;
        case Target::kCluster: TANDEM_RETURN_IF_ERROR(owner_of_cluster(name.parts.back())); break;
        case Target::kDatabase:
          if (!access_.is_owner(role_, catalog::database_object(name.parts.back()), ObjectType::kDatabase)) {
            return not_owner("DATABASE", name.parts.back());
          }
          break;
        case Target::kSystem: break;
      }
    }
    return Status::ok();
  }

  const catalog::CatalogSnapshot& s_;
  const AccessControl& access_;
  const std::string& user_;
  RoleId role_;
  const catalog::SearchPath& path_;
  const std::string& cluster_;
};

}  // namespace

catalog::RoleId session_role(const catalog::CatalogSnapshot& snapshot, const std::string& user) {
  if (const catalog::Role* r = snapshot.access().find_role(user)) return r->id;
  return RoleId::user(std::numeric_limits<uint64_t>::max());
}

bool is_superuser(const catalog::CatalogSnapshot& snapshot, const std::string& user) {
  return snapshot.access().is_superuser(session_role(snapshot, user));
}

Status check_privileges(const catalog::CatalogSnapshot& snapshot, const std::string& user,
                        const catalog::SearchPath& path, const std::string& cluster, const sql::Statement& statement) {
  return Checker(snapshot, user, path, cluster).check(statement);
}

}  // namespace tandem::frontend
