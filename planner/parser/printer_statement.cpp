// Printer: statements.

#include <cctype>

#include "planner/parser/printer.hpp"
#include "planner/parser/printer_impl.hpp"

namespace tandem::sql {
namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool is_plain_word(std::string_view s) {
  if (s.empty() || !((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_')) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

}  // namespace

void Printer::option_value(const OptionValue& v) {
  switch (v.kind) {
    case OptionValue::Kind::kNone: break;
    case OptionValue::Kind::kIdent:
      // Any word reads back as a value, keywords included (`= false`).
      if (is_plain_word(v.text)) *this << v.text;
      else ident(v.text);
      break;
    case OptionValue::Kind::kString: string(v.text); break;
    case OptionValue::Kind::kNumber: *this << v.text; break;
  }
}

void Printer::options(const std::vector<Option>& opts) {
  *this << "(";
  for (size_t i = 0; i < opts.size(); ++i) {
    if (i) *this << ", ";
    const Option& o = opts[i];
    // Option names are words (possibly two); a name that is not a plain word
    // came from a quoted identifier.
    if (o.name.find(' ') != std::string::npos) *this << upper(o.name);
    else ident(o.name);
    if (o.value.kind != OptionValue::Kind::kNone) {
      *this << " = ";
      option_value(o.value);
    }
  }
  *this << ")";
}

void Printer::set_values(const std::vector<OptionValue>& values, bool to_default) {
  if (to_default) {
    *this << "DEFAULT";
    return;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) *this << ", ";
    option_value(values[i]);
  }
}

void Printer::object_type(ObjectType t) {
  switch (t) {
    case ObjectType::kTable: *this << "TABLE"; break;
    case ObjectType::kView: *this << "VIEW"; break;
    case ObjectType::kMaterializedView: *this << "MATERIALIZED VIEW"; break;
    case ObjectType::kIndex: *this << "INDEX"; break;
    case ObjectType::kCluster: *this << "CLUSTER"; break;
    case ObjectType::kClusterReplica: *this << "CLUSTER REPLICA"; break;
    case ObjectType::kSchema: *this << "SCHEMA"; break;
  }
}

void Printer::transaction_modes(const TransactionModes& m) {
  bool first = true;
  if (!m.isolation_level.empty()) {
    *this << " ISOLATION LEVEL " << upper(m.isolation_level);
    first = false;
  }
  if (m.access != TransactionModes::Access::kUnspecified) {
    if (!first) *this << ",";
    *this << (m.access == TransactionModes::Access::kReadOnly ? " READ ONLY" : " READ WRITE");
  }
}

void Printer::create_index(const CreateIndex& c) {
  *this << "CREATE ";
  if (c.unique) *this << "UNIQUE ";
  if (c.default_index) *this << "DEFAULT ";
  *this << "INDEX ";
  if (c.if_not_exists) *this << "IF NOT EXISTS ";
  if (!c.name.empty()) {
    ident(c.name);
    *this << " ";
  }
  if (!c.in_cluster.empty()) {
    *this << "IN CLUSTER ";
    ident(c.in_cluster);
    *this << " ";
  }
  *this << "ON ";
  name(c.on);
  if (c.default_index) return;
  if (!c.using_method.empty()) {
    *this << " USING ";
    ident(c.using_method);
  }
  *this << " (";
  exprs(c.key_parts);
  *this << ")";
}

void Printer::create_mv(const CreateMaterializedView& c) {
  *this << (c.or_replace ? "CREATE OR REPLACE MATERIALIZED VIEW " : "CREATE MATERIALIZED VIEW ");
  if (c.if_not_exists) *this << "IF NOT EXISTS ";
  name(c.name);
  if (!c.columns.empty()) {
    *this << " (";
    idents(c.columns);
    *this << ")";
  }
  if (!c.in_cluster.empty()) {
    *this << " IN CLUSTER ";
    ident(c.in_cluster);
  }
  *this << " AS ";
  query(c.query);
}

void Printer::subscribe(const Subscribe& s) {
  *this << "SUBSCRIBE ";
  if (s.object) {
    name(*s.object);
  } else if (s.query) {
    *this << "(";
    query(*s.query);
    *this << ")";
  }
  if (s.envelope_upsert) {
    *this << " ENVELOPE UPSERT (KEY (";
    idents(s.upsert_key);
    *this << "))";
  }
  if (!s.options.empty()) {
    *this << " WITH ";
    options(s.options);
  }
  if (s.as_of) as_of(*s.as_of);
  if (s.up_to) {
    *this << " UP TO ";
    expr(*s.up_to);
  }
}

std::string print(const Statement& s) {
  Printer p;
  p.statement(s);
  return p.take();
}

}  // namespace tandem::sql
