// SVG charts of a scenario, written by hand (no plotting dependency): one
// horizontal bar group per (phase, query) with a bar per arm from 0 to p50
// and ticks at p95 and p99 (when supported), on a log axis; then timeline
// panels for queries that kept one.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "bench/tandem_bench/report.hpp"

namespace tandem::bench {
namespace {

constexpr const char* kArmColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1"};
constexpr int kWidth = 1000, kLabel = 380, kRight = 40, kTimelineLeft = 70;

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

// A log10 axis over [lo, hi] µs mapped to [x0, x1].
struct LogAxis {
  double lo, hi, x0, x1;
  double at(double v) const {
    v = std::clamp(v, lo, hi);
    return x0 + (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) * (x1 - x0);
  }
};

std::string tick_label(double v) {
  if (v >= 1e6) return std::to_string(static_cast<long>(v / 1e6)) + " s";
  if (v >= 1e3) return std::to_string(static_cast<long>(v / 1e3)) + " ms";
  return std::to_string(static_cast<long>(v)) + " µs";
}

void axis_ticks(std::ostringstream& o, const LogAxis& ax, double y0, double y1, bool vertical) {
  for (double v = ax.lo; v <= ax.hi * 1.001; v *= 10) {
    double p = ax.at(v);
    if (vertical)
      o << "<line x1='" << p << "' y1='" << y0 << "' x2='" << p << "' y2='" << y1 << "' stroke='#ddd'/>"
        << "<text x='" << p << "' y='" << y1 + 12 << "' font-size='10' text-anchor='middle'>" << tick_label(v)
        << "</text>";
    else
      o << "<line x1='" << y0 << "' y1='" << p << "' x2='" << y1 << "' y2='" << p << "' stroke='#ddd'/>"
        << "<text x='" << y0 - 4 << "' y='" << p + 3 << "' font-size='10' text-anchor='end'>" << tick_label(v)
        << "</text>";
  }
}

struct Row {
  std::string label;
  std::vector<const QueryResult*> per_arm;  // nullptr where an arm lacks it
};

std::vector<Row> rows_of(const ScenarioResult& s) {
  std::vector<Row> rows;
  for (std::size_t a = 0; a < s.arms.size(); ++a)
    for (const auto& p : s.arms[a].phases)
      for (const auto& q : p.queries) {
        std::string label = p.name + " · " + q.name;
        auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.label == label; });
        if (it == rows.end()) {
          rows.push_back({label, std::vector<const QueryResult*>(s.arms.size(), nullptr)});
          it = rows.end() - 1;
        }
        it->per_arm[a] = &q;
      }
  return rows;
}

double decade_above(double v) { return std::pow(10, std::ceil(std::log10(std::max(v, 10.0)))); }

void percentile_chart(std::ostringstream& o, const ScenarioResult& s, int& y) {
  auto rows = rows_of(s);
  double hi = 1000;
  for (const auto& r : rows)
    for (const auto* q : r.per_arm)
      if (q && q->latency.count > 0) hi = std::max(hi, q->latency.p99.value_or(q->latency.p95));
  LogAxis ax{10, decade_above(hi), kLabel, kWidth - kRight};
  int bar = 10, top = y;
  int height = static_cast<int>(rows.size() * (bar * s.arms.size() + 8));
  axis_ticks(o, ax, top, top + height, true);
  for (const auto& r : rows) {
    std::string label = r.label.size() > 64 ? r.label.substr(0, 61) + "..." : r.label;
    o << "<text x='" << kLabel - 6 << "' y='" << y + bar * s.arms.size() / 2.0 + 4
      << "' font-size='11' text-anchor='end'>" << esc(label) << "</text>";
    for (std::size_t a = 0; a < r.per_arm.size(); ++a, y += bar) {
      const QueryResult* q = r.per_arm[a];
      if (!q) continue;
      const char* color = kArmColors[a % 4];
      if (q->latency.count == 0) {
        o << "<text x='" << kLabel + 4 << "' y='" << y + bar - 2 << "' font-size='9' fill='#c00'>"
          << q->latency.errors << " errors, no successful sample</text>";
        continue;
      }
      o << "<rect x='" << kLabel << "' y='" << y + 1 << "' width='" << ax.at(q->latency.p50) - kLabel
        << "' height='" << bar - 2 << "' fill='" << color << "'><title>p50 " << q->latency.p50
        << " µs</title></rect>";
      auto tick = [&](double v, const char* name, int w) {
        double x = ax.at(v);
        o << "<line x1='" << x << "' y1='" << y << "' x2='" << x << "' y2='" << y + bar << "' stroke='" << color
          << "' stroke-width='" << w << "'><title>" << name << " " << v << " µs</title></line>";
      };
      tick(q->latency.p95, "p95", 2);
      if (q->latency.p99) tick(*q->latency.p99, "p99", 1);
    }
    y += 8;
  }
  y = top + height + 24;
}

void timeline_panels(std::ostringstream& o, const ScenarioResult& s, int& y) {
  double hi = 1000;  // one latency axis for every panel, so arms compare by eye
  for (const auto& arm : s.arms)
    for (const auto& p : arm.phases)
      for (const auto& q : p.queries)
        for (const auto& pt : q.timeline) hi = std::max(hi, pt.latency_us);
  for (std::size_t a = 0; a < s.arms.size(); ++a)
    for (const auto& p : s.arms[a].phases)
      for (const auto& q : p.queries) {
        if (q.timeline.size() < 20) continue;  // short ones are injections, drawn as markers
        int top = y + 16, h = 160;
        o << "<text x='" << kTimelineLeft << "' y='" << y + 10 << "' font-size='12'>timeline: " << esc(s.arms[a].name)
          << " · " << esc(p.name) << " · " << esc(q.name) << " (latency vs arrival; dashed lines: injected queries)</text>";
        LogAxis ay{10, decade_above(hi), static_cast<double>(top + h), static_cast<double>(top)};
        double x0 = kTimelineLeft, x1 = kWidth - kRight;
        auto xt = [&](double t) { return x0 + t / std::max(p.seconds, 1e-9) * (x1 - x0); };
        axis_ticks(o, ay, x0, x1, false);
        for (const auto& other : p.queries)
          if (&other != &q && !other.timeline.empty() && other.timeline.size() < 20)
            for (const auto& pt : other.timeline)
              o << "<line x1='" << xt(pt.at_s) << "' y1='" << top << "' x2='" << xt(pt.at_s) << "' y2='"
                << top + h << "' stroke='#c00' stroke-dasharray='4 3'><title>" << esc(other.name)
                << "</title></line>";
        for (const auto& pt : q.timeline) {
          if (pt.ok)
            o << "<circle cx='" << xt(pt.at_s) << "' cy='" << ay.at(pt.latency_us) << "' r='1.8' fill='"
              << kArmColors[a % 4] << "'/>";
          else
            o << "<text x='" << xt(pt.at_s) << "' y='" << top + 8 << "' font-size='9' fill='#c00'>x</text>";
        }
        for (int k = 0; k <= 4; ++k)
          o << "<text x='" << xt(p.seconds * k / 4) << "' y='" << top + h + 14
            << "' font-size='10' text-anchor='middle'>" << p.seconds * k / 4 << " s</text>";
        y = top + h + 24;
      }
}

}  // namespace

std::string scenario_svg(const ScenarioResult& s) {
  std::ostringstream body;
  int y = 50;
  percentile_chart(body, s, y);
  timeline_panels(body, s, y);
  std::ostringstream o;
  o << "<svg xmlns='http://www.w3.org/2000/svg' width='" << kWidth << "' height='" << y + 10
    << "' font-family='sans-serif'><rect width='100%' height='100%' fill='white'/>"
    << "<text x='10' y='18' font-size='15' font-weight='bold'>" << esc(s.name) << "</text>"
    << "<text x='10' y='34' font-size='11'>" << esc(s.guards)
    << " — bar: p50, thick tick: p95, thin tick: p99 (when ≥ 1000 samples)</text>";
  for (std::size_t a = 0; a < s.arms.size(); ++a)
    o << "<rect x='" << kWidth - 260 + 130 * static_cast<int>(a % 2) << "' y='6' width='10' height='10' fill='"
      << kArmColors[a % 4] << "'/><text x='" << kWidth - 246 + 130 * static_cast<int>(a % 2)
      << "' y='15' font-size='11'>" << esc(s.arms[a].name) << "</text>";
  o << body.str() << "</svg>\n";
  return o.str();
}

}  // namespace tandem::bench
