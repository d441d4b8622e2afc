#include "compute/dataflow/stateless_ops.hpp"

#include "common/eval.hpp"
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

void MfpOp::step() {
  InputPort& in = inputs_[0];
  Row row;
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
  for (Update& u : in.pending.oks) {
    arena_.clear();
    ctx_.arena.clear();
    unpack_into(u.val, &datums_, &arena_);
    produced_.clear();
    Status status = expand(u, datums_);
    if (!status.is_ok()) {
      out_.errs.push_back(Update{{}, error_row(status), u.time, u.diff});
      continue;
    }
    for (Update& p : produced_) out_.oks.push_back(std::move(p));
  }
  in.pending.oks.clear();
  forward_errors();
  advance_frontier(in.frontier);
}

void KeyByOp::step() {
  InputPort& in = inputs_[0];
  for (Update& u : in.pending.oks) {
    if (!key_) {
      Row key;
      RowPacker packer(&key);
      packer.set_normalize_numeric(true);
      arena_.clear();
      unpack_into(u.val, &datums_, &arena_);
      packer.push_all(datums_);
      out_.oks.push_back(Update{std::move(key), Row(), u.time, u.diff});
      continue;
    }
    arena_.clear();
    ctx_.arena.clear();
    unpack_into(u.val, &datums_, &arena_);
    Row key;
    RowPacker packer(&key);
    packer.set_normalize_numeric(true);
    bool has_null = false;
    Status failed;
    for (const ScalarExpr& e : *key_) {
      auto v = eval(e, datums_, ctx_);
      if (!v.ok()) {
        failed = v.status();
        break;
      }
      has_null |= v->is_null();
      packer.push(*v);
    }
    if (!failed.is_ok()) {
      out_.errs.push_back(Update{{}, error_row(failed), u.time, u.diff});
      continue;
    }
    if (has_null && skip_null_keys_) continue;
    out_.oks.push_back(Update{std::move(key), std::move(u.val), u.time, u.diff});
  }
  in.pending.oks.clear();
  forward_errors();
  advance_frontier(in.frontier);
}

}  // namespace tandem::compute
