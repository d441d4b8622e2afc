#include "frontend/adapter/table_copy.hpp"

#include "common/eval.hpp"
#include "common/value_io.hpp"

namespace tandem::frontend {

Result<std::shared_ptr<const BoundCopyIn>> bind_copy_in(const catalog::CatalogSnapshot& snapshot,
                                                        const catalog::SearchPath& path, const sql::Copy& copy) {
  // The target columns and defaults are those of INSERT INTO t (cols)
  // DEFAULT VALUES; the rows come from the data instead.
  sql::Insert insert;
  insert.table = *copy.table;
  insert.columns = copy.columns;
  insert.default_values = true;
  std::vector<ColumnType> no_params;
  TANDEM_ASSIGN_OR_RETURN(auto target, bind_insert(snapshot, path, insert, no_params));
  auto bound = std::make_shared<BoundCopyIn>();
  TANDEM_ASSIGN_OR_RETURN(bound->format, copy_format_from_options(copy.options));
  for (const auto& name : copy.columns) target->targets.push_back(*target->desc.column_index(name));
  if (copy.columns.empty()) {
    for (size_t i = 0; i < target->desc.arity(); ++i) target->targets.push_back(i);
  }
  target->defaults = target->rows.front();
  target->rows.clear();
  bound->target = std::move(target);
  return std::shared_ptr<const BoundCopyIn>(std::move(bound));
}

Result<TableWrite> evaluate_copy_in(const BoundCopyIn& copy, std::string_view data, EvalContext& ctx, size_t* count) {
  const BoundInsert& t = *copy.target;
  std::vector<Datum> defaults;
  for (const auto& e : t.defaults) {
    TANDEM_ASSIGN_OR_RETURN(Datum d, eval(e, {}, ctx));
    defaults.push_back(d);
  }
  auto context = [&](size_t line, size_t column) {
    return "COPY " + t.table_name + ", line " + std::to_string(line) + ", column " + t.desc.columns[column].name;
  };
  TableWrite write;
  write.table = t.table;
  RowArena arena;
  std::vector<Datum> full;
  size_t rows = 0;
  TANDEM_RETURN_IF_ERROR(for_each_copy_row(data, copy.format, [&](size_t line, const auto& fields) -> Status {
    if (fields.size() != t.targets.size()) {
      std::string what = fields.size() < t.targets.size()
                             ? "missing data for column \"" + t.desc.columns[t.targets[fields.size()]].name + "\""
                             : std::string("extra data after last expected column");
      return Status::error("22P04", what).with_detail("COPY " + t.table_name + ", line " + std::to_string(line));
    }
    full.assign(defaults.begin(), defaults.end());
    for (size_t i = 0; i < t.targets.size(); ++i) {
      size_t column = t.targets[i];
      if (!fields[i]) {
        full[column] = Datum::null();
        continue;
      }
      auto d = parse_datum(*fields[i], t.desc.columns[column].type, arena);
      if (!d.ok()) {
        Status s = d.status();
        return Status::error(s.sqlstate(), s.message())
            .with_detail(context(line, column) + ": \"" + std::string(*fields[i]) + "\"");
      }
      full[column] = *d;
    }
    for (size_t c = 0; c < full.size(); ++c) {
      if (full[c].is_null() && t.not_null[c]) {
        return Status::error(sqlstate::kNotNullViolation, "null value in column \"" + t.desc.columns[c].name +
                                                              "\" of relation \"" + t.table_name +
                                                              "\" violates not-null constraint")
            .with_detail("COPY " + t.table_name + ", line " + std::to_string(line));
      }
    }
    write.updates.emplace_back(Row::pack(full), 1);
    arena.clear();
    ++rows;
    return Status::ok();
  }));
  *count = rows;
  return write;
}
}  // namespace tandem::frontend
