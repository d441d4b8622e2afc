#include "catalog/catalog_store.hpp"

#include <charconv>
#include <memory>

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/write_batch.h>

namespace tandem::catalog {
namespace {

constexpr std::string_view kItemPrefix = "item/";
constexpr std::string_view kClusterPrefix = "cluster/";
constexpr std::string_view kSchemaPrefix = "schema/";
constexpr std::string_view kVarPrefix = "var/";
constexpr std::string_view kCounterPrefix = "counter/";
constexpr std::string_view kInitializedKey = "meta/initialized";
constexpr std::string_view kRolePrefix = "role/";
constexpr std::string_view kMemberPrefix = "member/";
constexpr std::string_view kAclPrefix = "acl/";
constexpr std::string_view kRolesInitializedKey = "meta/roles_initialized";
constexpr const char* kSpaceNames[] = {"item", "cluster", "schema", "role"};
constexpr int kSpaces = 4;

// "<kind letter><20-digit value>": byte order = (kind, value) order.
template <class Tag>
std::string id_key(std::string_view prefix, BasicId<Tag> id) {
  std::string digits = std::to_string(id.value);
  std::string key(prefix);
  key += id_kind_prefix(id.kind);
  key.append(20 - digits.size(), '0');
  key += digits;
  return key;
}

template <class Tag>
std::optional<BasicId<Tag>> parse_id_key(std::string_view key, std::string_view prefix) {
  if (key.size() != prefix.size() + 21) return std::nullopt;
  std::string_view rest = key.substr(prefix.size());
  IdKind kind;
  switch (rest[0]) {
    case 's': kind = IdKind::kSystem; break;
    case 'u': kind = IdKind::kUser; break;
    default: return std::nullopt;
  }
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(rest.data() + 1, rest.data() + rest.size(), value);
  if (ec != std::errc() || end != rest.data() + rest.size()) return std::nullopt;
  return BasicId<Tag>{kind, value};
}

std::string encode_fields(std::initializer_list<std::string_view> fields) {
  std::string out;
  for (std::string_view f : fields) {
    out += std::to_string(f.size());
    out += ':';
    out += f;
  }
  return out;
}

std::optional<std::vector<std::string>> decode_fields(std::string_view in) {
  std::vector<std::string> out;
  while (!in.empty()) {
    size_t colon = in.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    size_t len = 0;
    auto [end, ec] = std::from_chars(in.data(), in.data() + colon, len);
    if (ec != std::errc() || end != in.data() + colon || len > in.size() - colon - 1) {
      return std::nullopt;
    }
    out.emplace_back(in.substr(colon + 1, len));
    in.remove_prefix(colon + 1 + len);
  }
  return out;
}

std::optional<uint64_t> parse_u64(std::string_view s) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

Status corrupt(std::string_view key) {
  return Status::error(sqlstate::kDataCorrupted,
                       "catalog entry \"" + std::string(key) + "\" cannot be decoded");
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

void CatalogStore::Batch::put_item(const PersistedItem& item) {
  std::string shard = item.shard ? std::to_string(*item.shard) : std::string();
  ops_.push_back({id_key(kItemPrefix, item.id), encode_fields({item.create_sql, shard})});
}
void CatalogStore::Batch::delete_item(ItemId id) { ops_.push_back({id_key(kItemPrefix, id), std::nullopt}); }
void CatalogStore::Batch::put_cluster(const Cluster& c) {
  ops_.push_back({id_key(kClusterPrefix, c.id),
                  encode_fields({c.name, c.size, std::to_string(c.replication_factor), c.create_sql})});
}
void CatalogStore::Batch::delete_cluster(ClusterId id) {
  ops_.push_back({id_key(kClusterPrefix, id), std::nullopt});
}
void CatalogStore::Batch::put_schema(const Schema& s) {
  ops_.push_back({id_key(kSchemaPrefix, s.id), encode_fields({s.database, s.name})});
}
void CatalogStore::Batch::delete_schema(SchemaId id) {
  ops_.push_back({id_key(kSchemaPrefix, id), std::nullopt});
}
void CatalogStore::Batch::put_var(const std::string& name, const std::string& value) {
  ops_.push_back({std::string(kVarPrefix) + name, value});
}
void CatalogStore::Batch::delete_var(const std::string& name) {
  ops_.push_back({std::string(kVarPrefix) + name, std::nullopt});
}
void CatalogStore::Batch::put_next_id(IdSpace space, uint64_t next) {
  ops_.push_back({std::string(kCounterPrefix) + kSpaceNames[static_cast<int>(space)], std::to_string(next)});
}
void CatalogStore::Batch::mark_initialized() { ops_.push_back({std::string(kInitializedKey), "1"}); }
void CatalogStore::Batch::put_role(const Role& r) {
  ops_.push_back({std::string(kRolePrefix) + r.id.to_string(),
                  encode_fields({r.name, r.inherit ? "1" : "0", r.superuser ? "1" : "0", r.login ? "1" : "0"})});
}
void CatalogStore::Batch::delete_role(RoleId id) {
  ops_.push_back({std::string(kRolePrefix) + id.to_string(), std::nullopt});
}
void CatalogStore::Batch::put_member(RoleId role, RoleId member, RoleId grantor) {
  ops_.push_back({std::string(kMemberPrefix) + role.to_string() + "/" + member.to_string(), grantor.to_string()});
}
void CatalogStore::Batch::delete_member(RoleId role, RoleId member) {
  ops_.push_back({std::string(kMemberPrefix) + role.to_string() + "/" + member.to_string(), std::nullopt});
}
void CatalogStore::Batch::put_acl(const std::string& object, const ObjectAcl& acl) {
  std::string value = encode_fields({acl.owner.to_string()});
  for (const AclItem& item : acl.items) {
    value += encode_fields({item.grantee.to_string(), item.grantor.to_string(), std::to_string(item.privileges)});
  }
  ops_.push_back({std::string(kAclPrefix) + object, std::move(value)});
}
void CatalogStore::Batch::delete_acl(const std::string& object) {
  ops_.push_back({std::string(kAclPrefix) + object, std::nullopt});
}
void CatalogStore::Batch::mark_roles_initialized() { ops_.push_back({std::string(kRolesInitializedKey), "1"}); }

Status CatalogStore::commit(const Batch& batch) {
  rocksdb::WriteBatch wb;
  rocksdb::ColumnFamilyHandle* cf = store_.handle(storage::Family::kCatalog);
  for (const Batch::Op& op : batch.ops_) {
    rocksdb::Status s = op.value ? wb.Put(cf, op.key, *op.value) : wb.Delete(cf, op.key);
    if (!s.ok()) return Status::error(sqlstate::kIoError, "catalog write failed: " + s.ToString());
  }
  rocksdb::WriteOptions wo;
  wo.sync = store_.options().sync_writes;
  rocksdb::Status s = store_.db()->Write(wo, &wb);
  if (!s.ok()) return Status::error(sqlstate::kIoError, "catalog write failed: " + s.ToString());
  return Status::ok();
}

Result<CatalogStore::Loaded> CatalogStore::load() const {
  Loaded loaded;
  std::unique_ptr<rocksdb::Iterator> it(
      store_.db()->NewIterator(rocksdb::ReadOptions(), store_.handle(storage::Family::kCatalog)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string_view key(it->key().data(), it->key().size());
    std::string_view value(it->value().data(), it->value().size());
    if (starts_with(key, kItemPrefix)) {
      auto id = parse_id_key<ItemTag>(key, kItemPrefix);
      auto fields = decode_fields(value);
      if (!id || !fields || fields->size() != 2) return corrupt(key);
      PersistedItem item{*id, (*fields)[0], std::nullopt};
      if (!(*fields)[1].empty()) {
        auto shard = parse_u64((*fields)[1]);
        if (!shard) return corrupt(key);
        item.shard = *shard;
      }
      loaded.items.push_back(std::move(item));
    } else if (starts_with(key, kClusterPrefix)) {
      auto id = parse_id_key<ClusterTag>(key, kClusterPrefix);
      auto fields = decode_fields(value);
      if (!id || !fields || fields->size() != 4) return corrupt(key);
      auto rf = parse_u64((*fields)[2]);
      if (!rf) return corrupt(key);
      loaded.clusters.push_back(
          Cluster{*id, (*fields)[0], (*fields)[1], static_cast<uint32_t>(*rf), (*fields)[3]});
    } else if (starts_with(key, kSchemaPrefix)) {
      auto id = parse_id_key<SchemaTag>(key, kSchemaPrefix);
      auto fields = decode_fields(value);
      if (!id || !fields || fields->size() != 2) return corrupt(key);
      loaded.schemas.push_back(Schema{*id, (*fields)[0], (*fields)[1]});
    } else if (starts_with(key, kVarPrefix)) {
      loaded.vars.emplace(std::string(key.substr(kVarPrefix.size())), std::string(value));
    } else if (starts_with(key, kCounterPrefix)) {
      std::string_view space = key.substr(kCounterPrefix.size());
      auto next = parse_u64(value);
      if (!next) return corrupt(key);
      bool known = false;
      for (int i = 0; i < kSpaces; ++i) {
        if (space == kSpaceNames[i]) {
          loaded.next_id[i] = *next;
          known = true;
        }
      }
      if (!known) return corrupt(key);
    } else if (key == kInitializedKey) {
      loaded.initialized = true;
    } else if (key == kRolesInitializedKey) {
      loaded.roles_initialized = true;
    } else if (starts_with(key, kRolePrefix)) {
      auto id = RoleId::parse(key.substr(kRolePrefix.size()));
      auto fields = decode_fields(value);
      if (!id || !fields || fields->size() != 4) return corrupt(key);
      loaded.roles.push_back(Role{*id, (*fields)[0], (*fields)[1] == "1", (*fields)[2] == "1", (*fields)[3] == "1"});
    } else if (starts_with(key, kMemberPrefix)) {
      std::string_view rest = key.substr(kMemberPrefix.size());
      size_t slash = rest.find('/');
      if (slash == std::string_view::npos) return corrupt(key);
      auto role = RoleId::parse(rest.substr(0, slash));
      auto member = RoleId::parse(rest.substr(slash + 1));
      auto grantor = RoleId::parse(value);
      if (!role || !member || !grantor) return corrupt(key);
      loaded.members.push_back({*role, *member, *grantor});
    } else if (starts_with(key, kAclPrefix)) {
      auto fields = decode_fields(value);
      if (!fields || fields->empty() || fields->size() % 3 != 1) return corrupt(key);
      auto owner = RoleId::parse((*fields)[0]);
      if (!owner) return corrupt(key);
      ObjectAcl acl{*owner, {}};
      for (size_t i = 1; i < fields->size(); i += 3) {
        auto grantee = RoleId::parse((*fields)[i]);
        auto grantor = RoleId::parse((*fields)[i + 1]);
        auto bits = parse_u64((*fields)[i + 2]);
        if (!grantee || !grantor || !bits) return corrupt(key);
        acl.items.push_back({*grantee, *grantor, static_cast<uint32_t>(*bits)});
      }
      loaded.acls.emplace(std::string(key.substr(kAclPrefix.size())), std::move(acl));
    } else {
      return corrupt(key);
    }
  }
  if (!it->status().ok()) {
    return storage::read_error("reading the catalog", it->status());
  }
  return loaded;
}

}  // namespace tandem::catalog
