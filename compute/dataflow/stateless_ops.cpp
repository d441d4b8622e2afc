#include "compute/dataflow/stateless_ops.hpp"

#include "common/eval.hpp"
#include "common/jsonb.hpp"
#include "compute/dataflow/error_row.hpp"

namespace tandem::compute {

void ConstantOp::step() {
  if (done_) return;
  done_ = true;
  if (emit_) {
    if (constant_.error) {
      out_.errs.push_back(Update{{}, error_row(*constant_.error), time_, 1});
    } else {
      for (const Constant::Entry& e : constant_.rows) out_.oks.push_back(Update{{}, e.row, time_, e.diff});
    }
  }
  advance_frontier(kMaxTimestamp);
}

namespace {

// The input column a projected column copies, following map expressions that
// are plain column references (the planner's `Map (#0, #1) Project (#2, #3)`
// is a projection); nullopt if it is computed.
std::optional<std::size_t> copied_input_column(const MapFilterProject& mfp, std::size_t column) {
  while (column >= mfp.input_arity) {
    const auto* ref = std::get_if<ColumnRef>(&mfp.expressions[column - mfp.input_arity].node);
    if (ref == nullptr || ref->index >= column) return std::nullopt;
    column = ref->index;
  }
  return column;
}

}  // namespace

MfpOp::MfpOp(MapFilterProject mfp) : Operator("Mfp", 1), eval_(std::move(mfp)) {
  const MapFilterProject& m = eval_.mfp();
  if (!m.predicates.empty()) return;
  projection_only_ = true;
  identity_ = m.projection.size() == m.input_arity;
  for (std::size_t i = 0; i < m.projection.size() && projection_only_; ++i) {
    const auto column = copied_input_column(m, m.projection[i]);
    projection_only_ = column.has_value();
    if (column) input_columns_.push_back(*column);
    identity_ = identity_ && column == i;
  }
  identity_ = identity_ && projection_only_;
}

void MfpOp::step() {
  InputPort& in = inputs_[0];
  if (identity_) {
    if (out_.oks.empty()) {
      out_.oks.swap(in.pending.oks);
    } else {
      for (Update& u : in.pending.oks) out_.oks.push_back(std::move(u));
    }
    in.pending.oks.clear();
    forward_errors();
    advance_frontier(in.frontier);
    return;
  }
  Row row;
  if (projection_only_) {
    out_.oks.reserve(out_.oks.size() + in.pending.oks.size());
    for (Update& u : in.pending.oks) {
      split_packed(u.val, &spans_);
      std::string bytes;
      for (const std::size_t c : input_columns_) bytes.append(spans_[c]);
      out_.oks.push_back(Update{{}, Row(std::move(bytes)), u.time, u.diff});
    }
    in.pending.oks.clear();
    forward_errors();
    advance_frontier(in.frontier);
    return;
  }
  for (Update& u : in.pending.oks) {
    auto kept = eval_.evaluate_row(u.val, ctx_, &row);
    if (!kept.ok()) {
      out_.errs.push_back(Update{{}, error_row(kept.status()), u.time, u.diff});
    } else if (*kept) {
      out_.oks.push_back(Update{{}, std::move(row), u.time, u.diff});
      row = Row();
    }
  }
  in.pending.oks.clear();
  forward_errors();
  advance_frontier(in.frontier);
}

void UnionOp::step() {
  for (InputPort& p : inputs_) {
    for (Update& u : p.pending.oks) out_.oks.push_back(std::move(u));
    p.pending.oks.clear();
  }
  forward_errors();
  advance_frontier(least_input_frontier());
}

void NegateOp::step() {
  InputPort& in = inputs_[0];
  for (Update& u : in.pending.oks) {
    u.diff = -u.diff;
    out_.oks.push_back(std::move(u));
  }
  in.pending.oks.clear();
  forward_errors();
  advance_frontier(in.frontier);
}

Status FlatMapOp::expand(const Update& u, std::vector<Datum>& row) {
  std::vector<Datum> args;
  for (const ScalarExpr& e : args_) {
    auto v = eval(e, row, ctx_);
    if (!v.ok()) return v.status();
    if (v->is_null()) return Status::ok();
    args.push_back(*v);
  }
  if (func_ == TableFunc::kUnnest) {
    for (RowIter it(RowRef(args[0].as_array()), &ctx_.arena); !it.done();) {
      Row out(std::string(u.val.bytes()));
      RowPacker(&out).push(it.next());
      produced_.push_back(Update{{}, std::move(out), u.time, u.diff});
    }
    return Status::ok();
  }
  if (func_ >= TableFunc::kJsonbEach) {
    const auto f = static_cast<JsonbSetFunc>(static_cast<int>(func_) - static_cast<int>(TableFunc::kJsonbEach));
    auto rows = expand_jsonb(f, args[0], ctx_.arena);
    if (!rows.ok()) return rows.status();
    for (const auto& datums : *rows) {
      Row out(std::string(u.val.bytes()));
      RowPacker(&out).push_all(datums);
      produced_.push_back(Update{{}, std::move(out), u.time, u.diff});
    }
    return Status::ok();
  }
  const int64_t start = args.at(0).as_integer();
  const int64_t stop = args.at(1).as_integer();
  const int64_t step = args.size() > 2 ? args[2].as_integer() : 1;
  if (step == 0) return Status::error(sqlstate::kInvalidParameterValue, "step size cannot equal zero");
  const bool int4 = func_ == TableFunc::kGenerateSeriesInt4;
  for (int64_t v = start; step > 0 ? v <= stop : v >= stop;) {
    Row out(std::string(u.val.bytes()));
    RowPacker(&out).push(int4 ? Datum::from_int32(static_cast<int32_t>(v)) : Datum::from_int64(v));
    produced_.push_back(Update{{}, std::move(out), u.time, u.diff});
    if (__builtin_add_overflow(v, step, &v)) break;
  }
  return Status::ok();
}

void FlatMapOp::step() {
  InputPort& in = inputs_[0];
  std::vector<Update>& pending = in.pending.oks;
  std::size_t taken = 0;
  std::size_t emitted = 0;
  for (; taken < pending.size() && emitted < kFlatMapFuel; ++taken) {
    Update& u = pending[taken];
    arena_.clear();
    ctx_.arena.clear();
    unpack_into(u.val, &datums_, &arena_);
    produced_.clear();
    Status status = expand(u, datums_);
    if (!status.is_ok()) {
      out_.errs.push_back(Update{{}, error_row(status), u.time, u.diff});
      continue;
    }
    emitted += produced_.size();
    for (Update& p : produced_) out_.oks.push_back(std::move(p));
  }
  if (taken == pending.size()) {
    pending.clear();
  } else {
    pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(taken));
  }
  forward_errors();
  if (pending.empty()) advance_frontier(in.frontier);
}

KeyByOp::KeyByOp(std::optional<std::vector<ScalarExpr>> key, bool skip_null_keys, bool keep_val, bool keep_display)
    : Operator("KeyBy", 1),
      key_(std::move(key)),
      skip_null_keys_(skip_null_keys),
      keep_val_(keep_val),
      keep_display_(keep_display) {
  if (!key_) return;
  for (const ScalarExpr& e : *key_) {
    const auto* col = std::get_if<ColumnRef>(&e.node);
    if (col == nullptr) {
      key_columns_.clear();
      return;
    }
    key_columns_.push_back(col->index);
    key_width_ = std::max(key_width_, col->index + 1);
  }
}

bool KeyByOp::sliced_key(Update& u, Row* key) {
  if (key_) {
    // Only the datums up to the last key column.
    spans_.clear();
    RowIter it(u.val);
    while (spans_.size() < key_width_ && !it.done()) spans_.push_back(it.next_packed());
  } else {
    split_packed(u.val, &spans_);
  }
  std::string bytes;
  bool has_null = false;
  if (!key_) {
    for (const std::string_view d : spans_)
      if (!packed_is_key_mode(d)) return false;
  } else {
    for (const std::size_t c : key_columns_) {
      if (c >= spans_.size() || !packed_is_key_mode(spans_[c])) return false;
      has_null |= packed_is_null(spans_[c]);
      bytes.append(spans_[c]);
    }
  }
  // A NULL key to skip falls back to evaluate_key, which drops the row.
  if (has_null && skip_null_keys_) return false;
  *key = key_ ? Row(std::move(bytes)) : std::move(u.val);
  return true;
}

bool KeyByOp::evaluate_key(const Update& u, Row* key) {
  arena_.clear();
  ctx_.arena.clear();
  unpack_into(u.val, &datums_, &arena_);
  key->clear();
  RowPacker packer(key);
  packer.set_normalize_numeric(true);
  if (!key_) {
    packer.push_all(datums_);
    return true;
  }
  bool has_null = false;
  display_.clear();
  RowPacker display(&display_);
  for (const ScalarExpr& e : *key_) {
    auto v = eval(e, datums_, ctx_);
    if (!v.ok()) {
      out_.errs.push_back(Update{{}, error_row(v.status()), u.time, u.diff});
      return false;
    }
    has_null |= v->is_null();
    packer.push(*v);
    if (keep_display_) display.push(*v);
  }
  display_differs_ = keep_display_ && display_.bytes() != key->bytes();
  return !(has_null && skip_null_keys_);
}

void KeyByOp::step() {
  InputPort& in = inputs_[0];
  const bool sliceable = !key_ || !key_columns_.empty();
  out_.oks.reserve(out_.oks.size() + in.pending.oks.size());
  for (Update& u : in.pending.oks) {
    Row key;
    display_differs_ = false;
    if (!(sliceable && sliced_key(u, &key)) && !evaluate_key(u, &key)) continue;
    if (key_ && !keep_val_ && display_differs_) {
      out_.oks.push_back(Update{std::move(key), Row(std::string(display_.bytes())), u.time, u.diff});
    } else if (!key_ && keep_display_ && !u.val.bytes().empty() && u.val.bytes() != key.bytes()) {
      out_.oks.push_back(Update{std::move(key), std::move(u.val), u.time, u.diff});
    } else if (!key_ || !keep_val_) {
      out_.oks.push_back(Update{std::move(key), Row(), u.time, u.diff});
    } else {
      out_.oks.push_back(Update{std::move(key), std::move(u.val), u.time, u.diff});
    }
  }
  in.pending.oks.clear();
  forward_errors();
  advance_frontier(in.frontier);
}

}  // namespace tandem::compute
