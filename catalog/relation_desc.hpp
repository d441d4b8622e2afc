#pragma once
// RelationDesc: the shape of a relation as the catalog records it — column
// names with their types (common/types.hpp, nullability included) and the
// unique keys known for it, each a set of column indexes. The planner computes
// it when it plans a CREATE; the catalog stores it and hands it back for name
// binding, SHOW COLUMNS and DEFAULT INDEX key choice.
// Threading: plain value.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/types.hpp"

namespace tandem::catalog {

struct Column {
  std::string name;
  ColumnType type;

  bool operator==(const Column&) const = default;
};

struct RelationDesc {
  std::vector<Column> columns;
  // Known unique keys, each a sorted list of column indexes into `columns`.
  // Empty when none is known (duplicates may exist).
  std::vector<std::vector<size_t>> keys;

  size_t arity() const { return columns.size(); }

  // Index of the first column named `name` (exact match: the planner folds
  // case before asking), or nullopt.
  std::optional<size_t> column_index(std::string_view name) const {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].name == name) return i;
    }
    return std::nullopt;
  }

  bool operator==(const RelationDesc&) const = default;
};

}  // namespace tandem::catalog
