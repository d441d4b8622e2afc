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

CopyInBuilder::CopyInBuilder(std::shared_ptr<const BoundCopyIn> copy)
    : copy_(std::move(copy)),
      splitter_(copy_->format, [this](size_t line, const auto& fields) { return add_row(line, fields, false); }) {
  write_.table = copy_->target->table;
  if (copy_->format.binary) {
    binary_.emplace([this](size_t tuple, const auto& fields) { return add_row(tuple, fields, true); });
  }
}

Status CopyInBuilder::start() {
  for (const auto& e : copy_->target->defaults) {
    TANDEM_ASSIGN_OR_RETURN(Datum d, eval(e, {}, ctx_));
    defaults_.push_back(d);
  }
  return Status::ok();
}

Status CopyInBuilder::feed(std::string_view piece) {
  if (status_.is_ok()) status_ = binary_ ? binary_->feed(piece) : splitter_.feed(piece);
  if (!status_.is_ok()) staged_.reset();  // nothing staged outlives an error
  return status_;
}

Result<TableWrite> CopyInBuilder::finish(size_t* rows) {
  if (status_.is_ok()) status_ = binary_ ? binary_->finish() : splitter_.finish();
  if (status_.is_ok() && staged_) {
    for (const auto& [row, diff] : write_.updates) {
      status_ = staged_->add(row.ref(), diff);
      if (!status_.is_ok()) break;
    }
    write_.updates.clear();
  }
  if (!status_.is_ok()) {
    staged_.reset();
    return status_;
  }
  *rows = staged_ ? staged_->rows() : write_.updates.size();
  return std::move(write_);
}

Status CopyInBuilder::begin_staging() {
  TANDEM_ASSIGN_OR_RETURN(staged_, coordinator_->begin_staged_write(write_.table));
  for (const auto& [row, diff] : write_.updates) TANDEM_RETURN_IF_ERROR(staged_->add(row.ref(), diff));
  write_.updates = {};
  write_bytes_ = 0;
  return Status::ok();
}

Status CopyInBuilder::add_row(size_t line, const std::vector<std::optional<std::string_view>>& fields, bool binary) {
  const BoundInsert& t = *copy_->target;
  if (binary && fields.size() != t.targets.size()) {
    return Status::error("22P04", "row field count is " + std::to_string(fields.size()) + ", expected " +
                                      std::to_string(t.targets.size()))
        .with_detail("COPY " + t.table_name + ", line " + std::to_string(line));
  }
  if (fields.size() != t.targets.size()) {
    std::string what = fields.size() < t.targets.size()
                           ? "missing data for column \"" + t.desc.columns[t.targets[fields.size()]].name + "\""
                           : std::string("extra data after last expected column");
    return Status::error("22P04", what).with_detail("COPY " + t.table_name + ", line " + std::to_string(line));
  }
  full_.assign(defaults_.begin(), defaults_.end());
  for (size_t i = 0; i < t.targets.size(); ++i) {
    size_t column = t.targets[i];
    if (!fields[i]) {
      full_[column] = Datum::null();
      continue;
    }
    auto d = binary ? recv_datum(*fields[i], t.desc.columns[column].type, arena_)
                    : parse_datum(*fields[i], t.desc.columns[column].type, arena_);
    if (!d.ok()) {
      Status s = d.status();
      std::string where = "COPY " + t.table_name + ", line " + std::to_string(line) + ", column " +
                          t.desc.columns[column].name;
      return Status::error(s.sqlstate(), s.message())
          .with_detail(binary ? where : where + ": \"" + std::string(*fields[i]) + "\"");
    }
    full_[column] = *d;
  }
  for (size_t c = 0; c < full_.size(); ++c) {
    if (full_[c].is_null() && t.not_null[c]) {
      return Status::error(sqlstate::kNotNullViolation, "null value in column \"" + t.desc.columns[c].name +
                                                            "\" of relation \"" + t.table_name +
                                                            "\" violates not-null constraint")
          .with_detail("COPY " + t.table_name + ", line " + std::to_string(line));
    }
  }
  arena_.clear();
  if (staged_) {
    staged_row_.clear();  // one Row reused, not one allocated per line
    RowPacker(&staged_row_).push_all(full_);
    Status added = staged_->add(staged_row_.ref(), 1);
    // A duplicate key names its line; a storage error only itself.
    if (!added.is_ok()) return std::move(added).with_detail("COPY " + t.table_name + ", line " + std::to_string(line));
    return Status::ok();
  }
  write_.updates.emplace_back(Row::pack(full_), 1);
  write_bytes_ += write_.updates.back().first.bytes().size();
  if (coordinator_ != nullptr && write_bytes_ >= StagedWrite::kPieceBytes) return begin_staging();
  return Status::ok();
}

}  // namespace tandem::frontend
