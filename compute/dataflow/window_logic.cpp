#include "compute/dataflow/window_logic.hpp"

#include <algorithm>
#include <string>

#include "compute/dataflow/error_row.hpp"

namespace tandem::compute {

std::string_view window_func_name(const WindowFunc& f) {
  switch (f.kind) {
    case WindowFuncKind::kRowNumber: return "row_number";
    case WindowFuncKind::kRank: return "rank";
    case WindowFuncKind::kDenseRank: return "dense_rank";
    case WindowFuncKind::kPercentRank: return "percent_rank";
    case WindowFuncKind::kCumeDist: return "cume_dist";
    case WindowFuncKind::kNtile: return "ntile";
    case WindowFuncKind::kLag: return "lag";
    case WindowFuncKind::kLead: return "lead";
    case WindowFuncKind::kFirstValue: return "first_value";
    case WindowFuncKind::kLastValue: return "last_value";
    case WindowFuncKind::kNthValue: return "nth_value";
    case WindowFuncKind::kAggregate:
      switch (f.aggregate) {
        case AggregateFunc::kCountAll: return "count(*)";
        case AggregateFunc::kCount: return "count";
        case AggregateFunc::kMin: return "min";
        case AggregateFunc::kMax: return "max";
        case AggregateFunc::kStringAgg: return "string_agg";
        case AggregateFunc::kArrayAgg: return "array_agg";
        default: return "sum";
      }
  }
  return "?";
}

namespace {

using Kind = WindowFrameBound::Kind;

class WindowLogic final : public GroupLogic {
 public:
  WindowLogic(std::vector<ColumnOrder> order_by, std::vector<WindowFunc> funcs)
      : order_(std::move(order_by)), funcs_(std::move(funcs)) {}

  void apply(RowRef, const GroupContents& group, GroupResult* out) override {
    for (const auto& [val, mult] : group) {
      if (mult < 0) {
        out->errs.emplace_back(
            error_row(Status::error(sqlstate::kInternalError,
                                    "invalid data in dataflow: negative multiplicity in group input")),
            1);
        return;
      }
    }
    sort_partition(group);
    tails_.assign(pos_.size(), std::string());
    for (const WindowFunc& f : funcs_) {
      Status s = evaluate(f);
      if (!s.is_ok()) {
        out->errs.emplace_back(error_row(s), 1);
        return;
      }
    }
    std::vector<std::pair<std::string, Diff>> rows;
    rows.reserve(pos_.size());
    for (std::size_t i = 0; i < pos_.size(); ++i) {
      rows.emplace_back(std::string(group[pos_[i]].first) + tails_[i], 1);
    }
    std::sort(rows.begin(), rows.end());
    for (std::size_t i = 0; i < rows.size();) {
      std::size_t j = i;
      while (j < rows.size() && rows[j].first == rows[i].first) ++j;
      out->oks.emplace_back(Row(std::move(rows[i].first)), static_cast<Diff>(j - i));
      i = j;
    }
  }

 private:
  // pos_[i] = the group member at sorted position i (a member present n
  // times fills n positions); peers_ are [start, end) position ranges.
  void sort_partition(const GroupContents& group) {
    arena_.clear();
    datums_.resize(group.size());
    std::vector<std::size_t> members(group.size());
    for (std::size_t m = 0; m < group.size(); ++m) {
      unpack_into(RowRef(group[m].first), &datums_[m], &arena_);
      members[m] = m;
    }
    std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
      const int c = compare(datums_[a], datums_[b]);
      if (c != 0) return c < 0;
      return group[a].first < group[b].first;
    });
    pos_.clear();
    for (std::size_t m : members) {
      for (Diff k = 0; k < group[m].second; ++k) pos_.push_back(m);
    }
    const std::size_t n = pos_.size();
    peer_of_.assign(n, 0);
    peers_.clear();
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i + 1;
      while (j < n && compare(datums_[pos_[i]], datums_[pos_[j]]) == 0) ++j;
      for (std::size_t k = i; k < j; ++k) peer_of_[k] = peers_.size();
      peers_.emplace_back(i, j);
      i = j;
    }
  }

  int compare(const std::vector<Datum>& a, const std::vector<Datum>& b) const { return compare_in_order(a, b, order_); }

  const Datum& arg(std::size_t i, const WindowFunc& f, std::size_t a) const { return datums_[pos_[i]][f.args.at(a)]; }
  void push(std::size_t i, const Datum& d) { RowPacker(&tails_[i]).push(d); }

  // The frame of the row at position i, as positions [first, last]
  // (empty when first > last).
  std::pair<std::int64_t, std::int64_t> frame(const WindowFrame& fr, std::size_t i) const {
    const auto n = static_cast<std::int64_t>(pos_.size());
    const auto g = static_cast<std::int64_t>(peer_of_[i]);
    const auto groups = static_cast<std::int64_t>(peers_.size());
    auto group_start = [&](std::int64_t k) { return static_cast<std::int64_t>(peers_[static_cast<std::size_t>(k)].first); };
    auto group_end = [&](std::int64_t k) { return static_cast<std::int64_t>(peers_[static_cast<std::size_t>(k)].second) - 1; };
    const auto row = static_cast<std::int64_t>(i);
    std::int64_t first = 0;
    switch (fr.start.kind) {
      case Kind::kUnboundedPreceding: first = 0; break;
      case Kind::kUnboundedFollowing: first = n; break;
      case Kind::kCurrentRow: first = fr.units == WindowFrame::Units::kRows ? row : group_start(g); break;
      case Kind::kPreceding:
      case Kind::kFollowing: {
        const std::int64_t off = fr.start.kind == Kind::kPreceding ? -fr.start.offset : fr.start.offset;
        if (fr.units == WindowFrame::Units::kRows) {
          first = std::max<std::int64_t>(0, row + off);
        } else {
          const std::int64_t k = g + off;
          first = k < 0 ? 0 : k >= groups ? n : group_start(k);
        }
        break;
      }
    }
    std::int64_t last = n - 1;
    switch (fr.end.kind) {
      case Kind::kUnboundedPreceding: last = -1; break;
      case Kind::kUnboundedFollowing: last = n - 1; break;
      case Kind::kCurrentRow: last = fr.units == WindowFrame::Units::kRows ? row : group_end(g); break;
      case Kind::kPreceding:
      case Kind::kFollowing: {
        const std::int64_t off = fr.end.kind == Kind::kPreceding ? -fr.end.offset : fr.end.offset;
        if (fr.units == WindowFrame::Units::kRows) {
          last = std::min<std::int64_t>(n - 1, row + off);
        } else {
          const std::int64_t k = g + off;
          last = k < 0 ? -1 : k >= groups ? n - 1 : group_end(k);
        }
        break;
      }
    }
    return {first, last};
  }

  Status evaluate(const WindowFunc& f) {
    const std::size_t n = pos_.size();
    switch (f.kind) {
      case WindowFuncKind::kRowNumber:
        for (std::size_t i = 0; i < n; ++i) push(i, Datum::from_int64(static_cast<std::int64_t>(i + 1)));
        return Status::ok();
      case WindowFuncKind::kRank:
        for (std::size_t i = 0; i < n; ++i) push(i, Datum::from_int64(static_cast<std::int64_t>(peers_[peer_of_[i]].first + 1)));
        return Status::ok();
      case WindowFuncKind::kDenseRank:
        for (std::size_t i = 0; i < n; ++i) push(i, Datum::from_int64(static_cast<std::int64_t>(peer_of_[i] + 1)));
        return Status::ok();
      case WindowFuncKind::kPercentRank:
        for (std::size_t i = 0; i < n; ++i) {
          const double rank = static_cast<double>(peers_[peer_of_[i]].first);
          push(i, Datum::from_float64(n > 1 ? rank / static_cast<double>(n - 1) : 0.0));
        }
        return Status::ok();
      case WindowFuncKind::kCumeDist:
        for (std::size_t i = 0; i < n; ++i) {
          push(i, Datum::from_float64(static_cast<double>(peers_[peer_of_[i]].second) / static_cast<double>(n)));
        }
        return Status::ok();
      case WindowFuncKind::kNtile: return ntile(f);
      case WindowFuncKind::kLag:
      case WindowFuncKind::kLead: return lag_lead(f);
      case WindowFuncKind::kFirstValue:
      case WindowFuncKind::kLastValue:
      case WindowFuncKind::kNthValue: return frame_value(f);
      case WindowFuncKind::kAggregate: return aggregate(f);
    }
    return Status::ok();
  }

  Status ntile(const WindowFunc& f) {
    const std::size_t n = pos_.size();
    const Datum& buckets_d = arg(0, f, 0);
    if (buckets_d.is_null()) {
      for (std::size_t i = 0; i < n; ++i) push(i, Datum::null());
      return Status::ok();
    }
    const std::int64_t buckets = buckets_d.as_integer();
    if (buckets <= 0) return Status::error("22014", "argument of ntile must be greater than zero");
    const auto rows = static_cast<std::int64_t>(n);
    std::int64_t per = rows / buckets;
    std::int64_t extra = rows % buckets;
    // PostgreSQL: the first `rows % buckets` buckets hold one row more.
    std::int64_t bucket = 1, left = per + (extra > 0 ? 1 : 0);
    if (extra > 0) --extra;
    for (std::size_t i = 0; i < n; ++i) {
      if (left == 0) {
        ++bucket;
        left = per + (extra > 0 ? 1 : 0);
        if (extra > 0) --extra;
      }
      push(i, Datum::from_int32(static_cast<std::int32_t>(bucket)));
      --left;
    }
    return Status::ok();
  }

  Status lag_lead(const WindowFunc& f) {
    const auto n = static_cast<std::int64_t>(pos_.size());
    for (std::int64_t i = 0; i < n; ++i) {
      const auto row = static_cast<std::size_t>(i);
      std::int64_t offset = 1;
      if (f.args.size() > 1) {
        const Datum& o = arg(row, f, 1);
        if (o.is_null()) {
          push(row, Datum::null());
          continue;
        }
        offset = o.as_integer();
      }
      const std::int64_t target = f.kind == WindowFuncKind::kLag ? i - offset : i + offset;
      if (target >= 0 && target < n) {
        push(row, arg(static_cast<std::size_t>(target), f, 0));
      } else {
        push(row, f.args.size() > 2 ? arg(row, f, 2) : Datum::null());
      }
    }
    return Status::ok();
  }

  Status frame_value(const WindowFunc& f) {
    for (std::size_t i = 0; i < pos_.size(); ++i) {
      const auto [first, last] = frame(f.frame, i);
      std::int64_t at = -1;
      if (f.kind == WindowFuncKind::kFirstValue) {
        at = first;
      } else if (f.kind == WindowFuncKind::kLastValue) {
        at = last;
      } else {
        const Datum& nth = arg(i, f, 1);
        if (nth.is_null()) {
          push(i, Datum::null());
          continue;
        }
        if (nth.as_integer() <= 0) return Status::error("22016", "argument of nth_value must be greater than zero");
        at = first + nth.as_integer() - 1;
        if (at < first) at = -1;  // overflow
      }
      if (first > last || at < first || at > last) {
        push(i, Datum::null());
      } else {
        push(i, arg(static_cast<std::size_t>(at), f, 0));
      }
    }
    return Status::ok();
  }

  Status feed(AggregateAccumulator& acc, const WindowFunc& f, std::size_t at) {
    if (f.aggregate == AggregateFunc::kCountAll) return acc.add(Datum::from_bool(true), 1);
    const Datum& v = arg(at, f, 0);
    if (v.is_null()) return Status::ok();
    return acc.add(v, 1);
  }

  // The aggregate of positions [first, last] (fresh accumulator).
  Status aggregate_range(const WindowFunc& f, std::int64_t first, std::int64_t last, std::string* value) {
    AggregateAccumulator acc(f.aggregate);
    for (std::int64_t k = first; k <= last; ++k) TANDEM_RETURN_IF_ERROR(feed(acc, f, static_cast<std::size_t>(k)));
    value->clear();
    RowPacker packer(value);
    return acc.finish(packer);
  }

  Status aggregate(const WindowFunc& f) {
    const std::size_t n = pos_.size();
    if (n == 0) return Status::ok();
    std::vector<std::pair<std::int64_t, std::int64_t>> frames(n);
    bool from_start = true, to_end = true;
    for (std::size_t i = 0; i < n; ++i) {
      frames[i] = frame(f.frame, i);
      from_start = from_start && (frames[i].first <= 0 || frames[i].first > frames[i].second);
      to_end = to_end && (frames[i].second >= static_cast<std::int64_t>(n) - 1 || frames[i].first > frames[i].second);
    }
    std::string value;
    auto append = [&](std::size_t i) { tails_[i] += value; };
    // A row whose frame is empty aggregates nothing: a fresh accumulator.
    auto empty_value = [&]() { return aggregate_range(f, 0, -1, &value); };
    if (from_start || to_end) {
      // Frames that all start at 0 (or all end at n - 1) grow monotonically
      // as the other bound moves: one accumulator, fed once per position.
      AggregateAccumulator acc(f.aggregate);
      std::int64_t fed_first = static_cast<std::int64_t>(n), fed_last = -1;
      std::int64_t cached_first = 1, cached_last = 0;  // frame `value` holds
      auto visit = [&](std::size_t i) -> Status {
        const auto [first, last] = frames[i];
        if (first > last) {
          TANDEM_RETURN_IF_ERROR(empty_value());
          cached_first = 1, cached_last = 0;
          append(i);
          return Status::ok();
        }
        if (first != cached_first || last != cached_last) {
          if (from_start) {
            while (fed_last < last) TANDEM_RETURN_IF_ERROR(feed(acc, f, static_cast<std::size_t>(++fed_last)));
          } else {
            while (fed_first > first) TANDEM_RETURN_IF_ERROR(feed(acc, f, static_cast<std::size_t>(--fed_first)));
          }
          value.clear();
          RowPacker packer(&value);
          TANDEM_RETURN_IF_ERROR(acc.finish(packer));
          cached_first = first, cached_last = last;
        }
        append(i);
        return Status::ok();
      };
      if (from_start) {
        for (std::size_t i = 0; i < n; ++i) TANDEM_RETURN_IF_ERROR(visit(i));
      } else {
        for (std::size_t i = n; i-- > 0;) TANDEM_RETURN_IF_ERROR(visit(i));
      }
      return Status::ok();
    }
    std::int64_t cached_first = 1, cached_last = 0;
    bool cached = false;
    for (std::size_t i = 0; i < n; ++i) {
      const auto [first, last] = frames[i];
      if (!cached || first != cached_first || last != cached_last) {
        TANDEM_RETURN_IF_ERROR(aggregate_range(f, first, last, &value));
        cached = true, cached_first = first, cached_last = last;
      }
      append(i);
    }
    return Status::ok();
  }

  std::vector<ColumnOrder> order_;
  std::vector<WindowFunc> funcs_;
  RowArena arena_;
  std::vector<std::vector<Datum>> datums_;  // per group member
  std::vector<std::size_t> pos_;
  std::vector<std::size_t> peer_of_;
  std::vector<std::pair<std::size_t, std::size_t>> peers_;
  std::vector<std::string> tails_;  // per position: the packed function values
};

}  // namespace

std::unique_ptr<GroupLogic> make_window_logic(std::vector<ColumnOrder> order_by, std::vector<WindowFunc> funcs) {
  return std::make_unique<WindowLogic>(std::move(order_by), std::move(funcs));
}

}  // namespace tandem::compute
