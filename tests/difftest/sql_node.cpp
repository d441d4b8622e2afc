#include "tests/difftest/sql_node.hpp"

namespace tandem::difftest {

NodePtr with_simpler(NodePtr n, std::vector<NodePtr> replacements) {
  for (auto& r : replacements) {
    if (r) n->simpler.push_back(std::move(r));
  }
  return n;
}

namespace {

const SqlNode& chosen(const SqlNode& n) {
  return n.choice < 0 ? n : chosen(*n.simpler[static_cast<std::size_t>(n.choice)]);
}

void render_into(const SqlNode& n, std::string& out) {
  const SqlNode& c = chosen(n);
  for (const auto& part : c.parts) {
    if (const auto* text = std::get_if<std::string>(&part)) {
      out += *text;
    } else {
      render_into(*std::get<NodePtr>(part), out);
    }
  }
}

void collect(SqlNode& n, std::vector<SqlNode*>& out) {
  out.push_back(&n);
  SqlNode& c = n.choice < 0 ? n : *n.simpler[static_cast<std::size_t>(n.choice)];
  if (&c != &n) {
    collect(c, out);
    return;
  }
  for (auto& part : c.parts) {
    if (auto* child = std::get_if<NodePtr>(&part)) collect(**child, out);
  }
}

}  // namespace

std::string render(const NodePtr& n) {
  std::string out;
  if (n) render_into(*n, out);
  return out;
}

NodePtr clone(const NodePtr& n) {
  if (!n) return n;
  auto out = std::make_shared<SqlNode>();
  out->choice = n->choice;
  for (const auto& part : n->parts) {
    if (const auto* text = std::get_if<std::string>(&part)) {
      out->parts.emplace_back(*text);
    } else {
      out->parts.emplace_back(clone(std::get<NodePtr>(part)));
    }
  }
  for (const auto& s : n->simpler) out->simpler.push_back(clone(s));
  return out;
}

std::vector<SqlNode*> live_nodes(const NodePtr& root) {
  std::vector<SqlNode*> out;
  if (root) collect(*root, out);
  return out;
}

}  // namespace tandem::difftest
