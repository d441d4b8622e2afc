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
  if (subscribe.envelope_upsert) {
    return Status::error(sqlstate::kFeatureNotSupported, "SUBSCRIBE ... ENVELOPE UPSERT is not supported yet");
  }
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
  bound->columns.push_back(column("mz_diff", TypeId::kInt8, bound->progress));
  for (ResultColumn& c : data_columns) {
    if (bound->progress) c.type.nullable = true;
    bound->columns.push_back(std::move(c));
  }
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
  std::vector<Row> rows;
  RowArena arena;
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
    Row row;
    RowPacker packer(&row);
    packer.push(mz_timestamp_datum(u.time));
    if (bound_->progress) packer.push(Datum::from_bool(false));
    packer.push(Datum::from_int64(diff));
    for (const Datum& d : unpack(u.row.ref(), &arena)) packer.push(d);
    arena.clear();
    rows.push_back(std::move(row));
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
