#pragma once
// The mz_introspection relations as catalog items and their per-cluster
// indexes (DESIGN §6 "Introspection").
//
// Each log variant of compute/logging/log_variant.hpp is a system item of
// kind source in schema mz_introspection, registered at every boot right
// after the builtin catalog relations, in the variants' fixed order, so its
// id is stable. Its contents live in every cluster's runtime, as the index
// its logging dataflow exports (logging::log_index_id, the same id in each
// runtime): a read of the relation is planned as a read of that index on
// the session's cluster (SessionCatalog::indexes_on), so it is an ordinary
// fast-path peek or peek dataflow on that cluster. Views, materialized views
// and indexes may not depend on them (Materialize's rule: the contents are
// per cluster replica), refused with 0A000.
// Threading: registration on the coordinator thread at boot; the rest are
// pure functions.

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "compute/plan/global_id.hpp"

namespace tandem::frontend {

Status register_introspection_relations(catalog::Catalog& catalog);

// The log variant number (position in logging::log_variants()) of an
// introspection relation, or nullopt for any other item.
std::optional<size_t> introspection_variant(const catalog::Item& item);

// The per-cluster index of an introspection relation: its compute id and
// the name EXPLAIN prints.
compute::GlobalId introspection_index_id(size_t variant);
std::string introspection_index_name(size_t variant);
// The index's key columns (positions in the relation).
std::vector<size_t> introspection_index_key(size_t variant);

}  // namespace tandem::frontend
