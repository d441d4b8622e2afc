#pragma once
// Cluster: a named set of compute resources that indexes and materialized
// views are installed on. `quickstart` (u1) is created on first boot and
// behaves like any user cluster (it can be renamed or dropped); the system
// clusters `mz_system` (s1) and `mz_catalog_server` (s2) exist at every boot,
// are not persisted and cannot be changed.
//
// User clusters are persisted with their create_sql and their parsed options
// (name, size, replication factor) so that the catalog can load them at boot
// without the planner.
// Threading: plain values.

#include <cstdint>
#include <optional>
#include <string>

#include "catalog/access_control.hpp"

#include "catalog/global_id.hpp"

namespace tandem::catalog {

inline constexpr const char* kDefaultClusterName = "quickstart";
inline constexpr const char* kSystemClusterName = "mz_system";
inline constexpr const char* kCatalogServerClusterName = "mz_catalog_server";
inline constexpr const char* kDefaultClusterSize = "25cc";

// What CREATE CLUSTER supplies.
struct ClusterSpec {
  std::string name;
  std::string size = kDefaultClusterSize;
  uint32_t replication_factor = 1;
  std::string create_sql;  // as shown by SHOW CREATE CLUSTER
  std::optional<RoleId> owner;  // the creating role
};

struct Cluster {
  ClusterId id;
  std::string name;
  std::string size;
  uint32_t replication_factor = 1;
  std::string create_sql;

  bool is_system() const { return id.is_system(); }
  bool operator==(const Cluster&) const = default;
};

}  // namespace tandem::catalog
