#include "planner/explain/explain_tree.hpp"

#include <nlohmann/json.hpp>

namespace tandem::planner {
namespace {

void node_text(const ExplainNode& node, size_t indent, std::string* out) {
  if (node.op.empty()) {
    for (const auto& i : node.inputs) node_text(i, indent, out);
    return;
  }
  std::string pad(indent * 2, ' ');
  *out += pad + (node.arrow ? "→" : "") + node.op;
  if (!node.args.empty()) *out += " " + node.args;
  *out += "\n";
  for (const auto& d : node.details) *out += pad + "  " + d + "\n";
  for (const auto& i : node.inputs) node_text(i, indent + 1, out);
}

nlohmann::ordered_json node_json(const ExplainNode& node) {
  nlohmann::ordered_json j;
  if (node.op.empty()) {
    j["block"] = nlohmann::ordered_json::array();
    for (const auto& i : node.inputs) j["block"].push_back(node_json(i));
    return j;
  }
  j["op"] = node.op;
  if (!node.args.empty()) j["args"] = node.args;
  if (!node.details.empty()) j["details"] = node.details;
  if (!node.inputs.empty()) {
    j["inputs"] = nlohmann::ordered_json::array();
    for (const auto& i : node.inputs) j["inputs"].push_back(node_json(i));
  }
  return j;
}

}  // namespace

std::string explain_text(const Explanation& explanation) {
  std::string out;
  for (const auto& p : explanation.plans) {
    if (p.heading.empty()) {
      node_text(p.plan, 0, &out);
    } else {
      out += p.heading + "\n";
      node_text(p.plan, 1, &out);
    }
  }
  for (const auto& s : explanation.sources) out += "Source " + s + "\n";
  if (!explanation.used_indexes.empty()) {
    out += "Used Indexes:\n";
    for (const auto& i : explanation.used_indexes) out += "  - " + i.name + " (" + i.usage + ")\n";
  }
  out += "Target cluster: " + explanation.target_cluster + "\n";
  if (!explanation.target_runtime.empty()) out += "Target runtime: " + explanation.target_runtime + "\n";
  return out;
}

std::string explain_json(const Explanation& explanation) {
  nlohmann::ordered_json j;
  j["plans"] = nlohmann::ordered_json::array();
  for (const auto& p : explanation.plans) {
    nlohmann::ordered_json plan;
    plan["heading"] = p.heading;
    plan["plan"] = node_json(p.plan);
    j["plans"].push_back(std::move(plan));
  }
  j["sources"] = explanation.sources;
  j["used_indexes"] = nlohmann::ordered_json::array();
  for (const auto& i : explanation.used_indexes) j["used_indexes"].push_back({{"name", i.name}, {"usage", i.usage}});
  j["target_cluster"] = explanation.target_cluster;
  if (!explanation.target_runtime.empty()) j["target_runtime"] = explanation.target_runtime;
  return j.dump(2);
}

}  // namespace tandem::planner
