#pragma once
// CatalogReader: the narrow view of the catalog the planner needs (like
// Materialize's SessionCatalog). The coordinator implements it over the
// catalog layer for one session; tests use planner/testing/memory_catalog.hpp.
//
// Contract:
//  * resolve(name) takes a 1-3 part name ({item}, {schema, item},
//    {database, schema, item}), already case-folded, and resolves it with the
//    session's search_path. nullptr means "no such item" (the planner raises
//    42P01 with PostgreSQL's message).
//  * An item's `desc` holds its column names, types (nullability included)
//    and known unique keys. For a view, `view_sql` is its defining query as
//    SQL text; the planner parses, binds and inlines it. For tables,
//    materialized views and system relations the planner reads the item's
//    collection by `id` (a source import in a dataflow).
//  * A kSystemRelation with `rows` (the builtin catalog relations of
//    catalog/builtin_relations.hpp) is a constant collection: the planner
//    binds it as those rows, computed from the catalog snapshot this
//    reader resolves names in, rather than reading a collection.
//  * indexes_on(id) lists the indexes on an item whose arrangements exist,
//    each keyed by expressions over the item's columns (a plain column key is
//    a ColumnRef).
// Returned pointers stay valid for the duration of one planning call.
// Threading: one reader per planning call; implementations need not be
// thread-safe.

#include <memory>
#include <string>
#include <vector>

#include "catalog/relation_desc.hpp"
#include "common/row.hpp"
#include "common/scalar_expr.hpp"
#include "compute/plan/global_id.hpp"

namespace tandem::planner {

enum class ItemKind { kTable, kView, kMaterializedView, kIndex, kSystemRelation };

struct IndexInfo {
  compute::GlobalId index_id = 0;
  std::string name;                // fully qualified, for EXPLAIN
  std::vector<ScalarExpr> key;     // over the indexed item's columns
};

struct CatalogItem {
  compute::GlobalId id = 0;
  ItemKind kind = ItemKind::kTable;
  std::string name;                // fully qualified, for EXPLAIN and errors
  catalog::RelationDesc desc;
  std::string view_sql;            // kView only: the defining SELECT
  std::shared_ptr<const std::vector<Row>> rows = nullptr;  // constant system relations only
};

class CatalogReader {
 public:
  virtual ~CatalogReader() = default;
  virtual const CatalogItem* resolve(const std::vector<std::string>& name) const = 0;
  virtual std::vector<IndexInfo> indexes_on(compute::GlobalId id) const = 0;
};

}  // namespace tandem::planner
