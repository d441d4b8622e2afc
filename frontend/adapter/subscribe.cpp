#include "frontend/adapter/subscribe.hpp"

#include <algorithm>

#include "common/numeric.hpp"
#include "compute/dataflow/error_row.hpp"
#include "planner/timestamp_selection.hpp"

namespace tandem::frontend {
namespace {

Result<bool> bool_option(const sql::Option& option) {
  const auto& v = option.value;
  if (v.kind == sql::OptionValue::Kind::kNone) return true;
  std::string text = v.text;
  std::transform(text.begin(), text.end(), text.begin(), ::tolower);
  if (text == "true" || text == "on" || text == "1") return true;
  if (text == "false" || text == "off" || text == "0") return false;
  return Status::error(sqlstate::kInvalidParameterValue,
                       "invalid " + option.name + " option value: expected boolean, got " + v.text);
}

Datum mz_timestamp_datum(Timestamp t) {
  return Datum::from_numeric(Numeric::from_parts(static_cast<__int128>(t), 0));
}

}  // namespace

sql::Query subscribe_query(const sql::Subscribe& subscribe) {
  if (subscribe.query) return *subscribe.query;
  sql::Query query;
  sql::Select select;
  sql::Expr star;
  star.node = sql::Star{};
  select.projection.push_back({std::move(star), std::nullopt});
  sql::TableRef ref;
  ref.node = sql::TableName{*subscribe.object, std::nullopt};
  select.from.push_back(std::move(ref));
  query.body.node = std::move(select);
  return query;
}

Result<std::shared_ptr<const BoundSubscribe>> bind_subscribe(const sql::Subscribe& subscribe,
                                                             std::vector<ResultColumn> data_columns) {
  auto bound = std::make_shared<BoundSubscribe>();
  bound->query = subscribe_query(subscribe);
  for (const sql::Option& option : subscribe.options) {
    if (option.name == "snapshot") {
      TANDEM_ASSIGN_OR_RETURN(bound->snapshot, bool_option(option));
    } else if (option.name == "progress") {
      TANDEM_ASSIGN_OR_RETURN(bound->progress, bool_option(option));
    } else {
      return Status::error(sqlstate::kSyntaxError, "unrecognized SUBSCRIBE option: " + option.name);
    }
  }
  if (subscribe.as_of) {
    auto as_of = planner::evaluate_as_of(*subscribe.as_of);
    if (!as_of.ok()) return as_of.status();
    bound->as_of = subscribe.as_of;
  }
  if (subscribe.up_to) {
    sql::AsOf up_to;
    up_to.time = *subscribe.up_to;
    TANDEM_ASSIGN_OR_RETURN(planner::QueryWhen when, planner::evaluate_as_of(up_to));
    bound->up_to = when.ts;
  }
  auto column = [](std::string name, TypeId type, bool nullable) {
    return ResultColumn{std::move(name), ColumnType{type, -1, nullable}};
  };
  bound->columns.push_back(column("mz_timestamp", TypeId::kNumeric, false));
  if (bound->progress) bound->columns.push_back(column("mz_progressed", TypeId::kBool, false));
  if (!subscribe.envelope_upsert) {
    bound->columns.push_back(column("mz_diff", TypeId::kInt8, bound->progress));
    for (ResultColumn& c : data_columns) {
      if (bound->progress) c.type.nullable = true;
      bound->columns.push_back(std::move(c));
    }
    return std::shared_ptr<const BoundSubscribe>(std::move(bound));
  }
  // ENVELOPE UPSERT: mz_state, the key columns, then the values (NULL in a
  // delete or a key violation).
  std::vector<size_t> key;
  for (const std::string& name : subscribe.upsert_key) {
    auto found = std::find_if(data_columns.begin(), data_columns.end(),
                              [&](const ResultColumn& c) { return c.name == name; });
    if (found == data_columns.end()) return Status::error(sqlstate::kUndefinedColumn, "No such column: " + name);
    size_t index = static_cast<size_t>(found - data_columns.begin());
    if (std::find(key.begin(), key.end(), index) != key.end()) {
      return Status::error(sqlstate::kDuplicateColumn, "column \"" + name + "\" appears more than once in KEY");
    }
    key.push_back(index);
  }
  bound->columns.push_back(column("mz_state", TypeId::kText, bound->progress));
  for (size_t k : key) {
    ResultColumn c = data_columns[k];
    if (bound->progress) c.type.nullable = true;
    bound->columns.push_back(std::move(c));
  }
  for (size_t i = 0; i < data_columns.size(); ++i) {
    if (std::find(key.begin(), key.end(), i) != key.end()) continue;
    ResultColumn c = data_columns[i];
    c.type.nullable = true;
    bound->columns.push_back(std::move(c));
  }
  bound->upsert_key = std::move(key);
  return std::shared_ptr<const BoundSubscribe>(std::move(bound));
}

SubscribeSink::SubscribeSink(std::shared_ptr<const BoundSubscribe> bound, Timestamp as_of,
                             std::shared_ptr<RowChannel> channel)
    : bound_(std::move(bound)), as_of_(as_of), channel_(std::move(channel)) {}

Row SubscribeSink::progress_row(Timestamp t) const {
  Row row;
  RowPacker packer(&row);
  packer.push(mz_timestamp_datum(t));
  packer.push(Datum::from_bool(true));
  for (size_t c = 2; c < bound_->columns.size(); ++c) packer.push_null();
  return row;
}

bool SubscribeSink::push(std::vector<Row>& rows) {
  if (ended_) return false;
  if (rows.empty()) return true;
  switch (channel_->push(rows)) {
    case RowChannel::Push::kAccepted:
      return true;
    case RowChannel::Push::kFull:
      channel_->finish(Status::error(sqlstate::kProgramLimitExceeded,
                                     "subscribe ended: the client fell more than " + std::to_string(kBufferRows) +
                                         " rows behind")
                           .with_hint("Read the subscribe's rows as fast as they are produced."));
      break;
    case RowChannel::Push::kClosed:
      break;
  }
  ended_ = true;
  return false;
}

bool SubscribeSink::start() {
  if (bound_->up_to && *bound_->up_to <= as_of_) {
    channel_->finish();
    ended_ = true;
    return false;
  }
  if (bound_->progress) {
    std::vector<Row> first{progress_row(as_of_)};
    progressed_ = as_of_;
    return push(first);
  }
  return true;
}

bool SubscribeSink::deliver(compute::SinkBatch batch) {
  if (ended_) return false;
  const Timestamp up_to = bound_->up_to.value_or(kMaxTimestamp);
  // An error at a time before UP TO ends the subscribe after the rows of
  // the times before it.
  std::optional<std::pair<Timestamp, Status>> error;
  for (const compute::SinkUpdate& e : batch.errs) {
    if (e.diff <= 0 || e.time >= up_to) continue;
    if (!error || e.time < error->first) {
      error.emplace(e.time, compute::evaluation_error(compute::status_from_error_row(e.row.ref())));
    }
  }
  // Time order, then consolidated per (time, row).
  auto& updates = batch.oks;
  std::sort(updates.begin(), updates.end(), [](const compute::SinkUpdate& a, const compute::SinkUpdate& b) {
    return a.time != b.time ? a.time < b.time : a.row < b.row;
  });
  std::vector<Update> consolidated;
  for (size_t i = 0; i < updates.size();) {
    size_t j = i;
    Diff diff = 0;
    for (; j < updates.size() && updates[j].time == updates[i].time && updates[j].row == updates[i].row; ++j) {
      diff += updates[j].diff;
    }
    const compute::SinkUpdate& u = updates[i];
    i = j;
    if (diff == 0 || u.time >= up_to) continue;
    if (error && u.time >= error->first) continue;
    if (!bound_->snapshot && u.time <= as_of_) continue;
    consolidated.push_back(Update{u.time, u.row.ref(), diff});
  }
  std::vector<Row> rows;
  if (bound_->upsert_key) {
    append_upserts(consolidated, &rows);
  } else {
    append_rows(consolidated, &rows);
  }
  if (error) {
    if (!push(rows)) return false;
    channel_->finish(error->second);
    ended_ = true;
    return false;
  }
  const bool complete = batch.upper >= up_to || batch.upper == kMaxTimestamp;
  if (bound_->progress && !complete && batch.upper > progressed_) {
    rows.push_back(progress_row(batch.upper));
    progressed_ = batch.upper;
  }
  if (!push(rows)) return false;
  if (complete) {
    channel_->finish();
    ended_ = true;
    return false;
  }
  return true;
}

}  // namespace tandem::frontend

namespace tandem::frontend {

void SubscribeSink::append_rows(const std::vector<Update>& updates, std::vector<Row>* out) const {
  RowArena arena;
  for (const Update& u : updates) {
    Row row;
    RowPacker packer(&row);
    packer.push(mz_timestamp_datum(u.time));
    if (bound_->progress) packer.push(Datum::from_bool(false));
    packer.push(Datum::from_int64(u.diff));
    for (const Datum& d : unpack(u.row, &arena)) packer.push(d);
    arena.clear();
    out->push_back(std::move(row));
  }
}

void SubscribeSink::append_upserts(const std::vector<Update>& updates, std::vector<Row>* out) const {
  const std::vector<size_t>& key = *bound_->upsert_key;
  // Each update's datums, then the updates in (time, key, diff) order: a
  // key's retraction before its insert.
  RowArena arena;
  std::vector<std::vector<Datum>> datums;
  datums.reserve(updates.size());
  for (const Update& u : updates) datums.push_back(unpack(u.row, &arena));
  auto compare_keys = [&](size_t a, size_t b) {
    for (size_t k : key) {
      if (int c = compare_datums(datums[a][k], datums[b][k]); c != 0) return c;
    }
    return 0;
  };
  std::vector<size_t> order(updates.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (updates[a].time != updates[b].time) return updates[a].time < updates[b].time;
    if (int c = compare_keys(a, b); c != 0) return c < 0;
    return updates[a].diff < updates[b].diff;
  });
  const size_t arity = datums.empty() ? 0 : datums.front().size();
  for (size_t i = 0; i < order.size();) {
    size_t j = i + 1;
    while (j < order.size() && updates[order[j]].time == updates[order[i]].time && compare_keys(order[i], order[j]) == 0) {
      ++j;
    }
    const size_t group = j - i;
    const Update& first = updates[order[i]];
    const Update& last = updates[order[j - 1]];
    const char* state = "key_violation";
    const std::vector<Datum>* values = nullptr;
    if (group == 1 && first.diff == 1) {
      state = "upsert";
      values = &datums[order[i]];
    } else if (group == 1 && first.diff == -1) {
      state = "delete";
    } else if (group == 2 && first.diff == -1 && last.diff == 1) {
      state = "upsert";
      values = &datums[order[j - 1]];
    }
    Row row;
    RowPacker packer(&row);
    packer.push(mz_timestamp_datum(first.time));
    if (bound_->progress) packer.push(Datum::from_bool(false));
    packer.push(Datum::from_string(state));
    for (size_t k : key) packer.push(datums[order[i]][k]);
    for (size_t c = 0; c < arity; ++c) {
      if (std::find(key.begin(), key.end(), c) != key.end()) continue;
      if (values) {
        packer.push((*values)[c]);
      } else {
        packer.push_null();
      }
    }
    out->push_back(std::move(row));
    i = j;
  }
}

}  // namespace tandem::frontend
