#include "compute/plan/window_text.hpp"

namespace tandem::compute {
namespace {

std::string bound(const WindowFrameBound& b) {
  switch (b.kind) {
    case WindowFrameBound::Kind::kUnboundedPreceding: return "unbounded preceding";
    case WindowFrameBound::Kind::kPreceding: return std::to_string(b.offset) + " preceding";
    case WindowFrameBound::Kind::kCurrentRow: return "current row";
    case WindowFrameBound::Kind::kFollowing: return std::to_string(b.offset) + " following";
    case WindowFrameBound::Kind::kUnboundedFollowing: return "unbounded following";
  }
  return "?";
}

bool uses_frame(WindowFuncKind k) {
  return k == WindowFuncKind::kFirstValue || k == WindowFuncKind::kLastValue || k == WindowFuncKind::kNthValue ||
         k == WindowFuncKind::kAggregate;
}

}  // namespace

std::string window_text(const std::vector<std::size_t>& partition_by, const std::vector<ColumnOrder>& order_by,
                        const std::vector<WindowFunc>& funcs) {
  std::string s;
  if (!partition_by.empty()) {
    s += "partition_by=[";
    for (std::size_t i = 0; i < partition_by.size(); ++i) s += (i ? ", #" : "#") + std::to_string(partition_by[i]);
    s += "] ";
  }
  if (!order_by.empty()) {
    s += "order_by=[";
    for (std::size_t i = 0; i < order_by.size(); ++i) {
      s += (i ? ", #" : "#") + std::to_string(order_by[i].column) + (order_by[i].desc ? " desc" : " asc");
      if (order_by[i].nulls_last == order_by[i].desc) s += order_by[i].nulls_last ? " nulls_last" : " nulls_first";
    }
    s += "] ";
  }
  s += "funcs=[";
  for (std::size_t i = 0; i < funcs.size(); ++i) {
    const WindowFunc& f = funcs[i];
    s += (i ? ", " : "") + std::string(window_func_name(f));
    if (f.aggregate != AggregateFunc::kCountAll || f.kind != WindowFuncKind::kAggregate) {
      s += "(";
      for (std::size_t a = 0; a < f.args.size(); ++a) s += (a ? ", #" : "#") + std::to_string(f.args[a]);
      s += ")";
    }
    if (uses_frame(f.kind) && !(f.frame == WindowFrame{})) {
      s += f.frame.units == WindowFrame::Units::kRows ? " rows " : f.frame.units == WindowFrame::Units::kGroups ? " groups " : " range ";
      s += bound(f.frame.start) + ".." + bound(f.frame.end);
    }
  }
  return s + "]";
}

}  // namespace tandem::compute
