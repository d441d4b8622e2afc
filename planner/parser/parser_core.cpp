// Parser: token cursor, syntax errors, names, type names and option lists.

#include <cstdlib>
#include <string>

#include "common/sqlstate.hpp"
#include "planner/parser/keywords.hpp"
#include "planner/parser/lexer.hpp"
#include "planner/parser/parser_impl.hpp"

namespace tandem::sql {
namespace {

// Stack the parser may use below its entry point before it rejects the
// input as too deeply nested (PostgreSQL's max_stack_depth defaults to 2 MB).
// Measured in bytes rather than levels because frame sizes differ between
// Debug, Release and sanitizer builds.
constexpr uintptr_t kStackBudget = 1024 * 1024;

// Option names that are two words (Materialize's WITH (...) lists).
constexpr const char* kTwoWordOptions[][2] = {
    {"replication", "factor"}, {"join", "implementations"}, {"availability", "zone"},
    {"introspection", "interval"}, {"introspection", "debugging"}, {"column", "names"},
    {"raw", "plans"}, {"raw", "syntax"}, {"non", "negative"}, {"humanized", "expressions"},
    {"linear", "chains"}, {"filter", "pushdown"}, {"force", "quote"}, {"force", "not"},
};

}  // namespace

bool Parser::peek_words(std::initializer_list<const char*> ws) const {
  size_t k = 0;
  for (const char* w : ws) {
    if (!peek_word(w, k++)) return false;
  }
  return true;
}

bool Parser::accept_word(const char* w) {
  if (!peek_word(w)) return false;
  advance();
  return true;
}

bool Parser::accept_op(const char* o) {
  if (!peek_op(o)) return false;
  advance();
  return true;
}

bool Parser::accept_words(std::initializer_list<const char*> ws) {
  if (!peek_words(ws)) return false;
  for (size_t i = 0; i < ws.size(); ++i) advance();
  return true;
}

Status Parser::expect_word(const char* w) { return accept_word(w) ? Status::ok() : error_here(); }
Status Parser::expect_op(const char* o) { return accept_op(o) ? Status::ok() : error_here(); }

Status Parser::expect_words(std::initializer_list<const char*> ws) {
  for (const char* w : ws) TANDEM_RETURN_IF_ERROR(expect_word(w));
  return Status::ok();
}

Status Parser::error_at(const Token& t) const {
  int position = char_position(text_, t.offset);
  if (t.kind == TokenKind::kEof) {
    return Status::error(sqlstate::kSyntaxError, "syntax error at end of input").with_position(position);
  }
  std::string near(text_.substr(t.offset, t.length));
  return Status::error(sqlstate::kSyntaxError, "syntax error at or near \"" + near + "\"")
      .with_position(position);
}

Status Parser::error_here() const { return error_at(peek()); }

Status Parser::expect_end() const { return at_end() ? Status::ok() : error_here(); }

Status Parser::enter() {
  auto frame = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  uintptr_t used = frame < stack_base_ ? stack_base_ - frame : frame - stack_base_;
  ++depth_;
  if (used > kStackBudget) {
    --depth_;
    return Status::error(sqlstate::kProgramLimitExceeded, "statement is too deeply nested")
        .with_position(char_position(text_, peek().offset));
  }
  return Status::ok();
}

bool Parser::peek_identifier(size_t k) const {
  const Token& t = peek(k);
  return t.kind == TokenKind::kQuotedIdent ||
         (t.kind == TokenKind::kWord && !is_reserved_for_name(t.text));
}

Result<std::string> Parser::parse_identifier() {
  if (!peek_identifier()) return error_here();
  return advance().text;
}

Result<std::string> Parser::parse_column_label() {
  const Token& t = peek();
  if (t.kind != TokenKind::kQuotedIdent && t.kind != TokenKind::kWord) return error_here();
  return advance().text;
}

Result<ObjectName> Parser::parse_object_name() {
  ObjectName name;
  name.pos = here();
  TANDEM_ASSIGN_OR_RETURN(std::string first, parse_identifier());
  name.parts.push_back(std::move(first));
  while (peek_op(".")) {
    advance();
    TANDEM_ASSIGN_OR_RETURN(std::string part, parse_column_label());
    name.parts.push_back(std::move(part));
  }
  return name;
}

Result<std::vector<std::string>> Parser::parse_identifier_list() {
  std::vector<std::string> out;
  do {
    TANDEM_ASSIGN_OR_RETURN(std::string id, parse_identifier());
    out.push_back(std::move(id));
  } while (accept_op(","));
  return out;
}

Result<std::vector<std::string>> Parser::parse_paren_identifier_list() {
  TANDEM_RETURN_IF_ERROR(expect_op("("));
  TANDEM_ASSIGN_OR_RETURN(std::vector<std::string> out, parse_identifier_list());
  TANDEM_RETURN_IF_ERROR(expect_op(")"));
  return out;
}

Result<int64_t> Parser::parse_int_literal() {
  bool negative = accept_op("-");
  const Token& t = peek();
  if (t.kind != TokenKind::kNumber || t.text.find_first_not_of("0123456789") != std::string::npos ||
      t.text.size() > 18) {
    return error_here();
  }
  int64_t v = std::strtoll(t.text.c_str(), nullptr, 10);
  advance();
  return negative ? -v : v;
}

bool Parser::peek_type_keyword() const {
  const Token& t = peek();
  if (t.kind != TokenKind::kWord) return false;
  static constexpr const char* kWords[] = {"double", "character", "char", "varchar", "national",
                                           "bit", "timestamp", "time", "interval", "numeric",
                                           "decimal", "float", "nchar"};
  for (const char* w : kWords) {
    if (t.text == w) return true;
  }
  return false;
}

Result<TypeName> Parser::parse_type_name() {
  TypeName type;
  type.pos = here();
  auto parse_mods = [&]() -> Status {
    if (!accept_op("(")) return Status::ok();
    do {
      TANDEM_ASSIGN_OR_RETURN(int64_t m, parse_int_literal());
      type.modifiers.push_back(static_cast<int32_t>(m));
    } while (accept_op(","));
    return expect_op(")");
  };
  const Token& t = peek();
  if (t.kind == TokenKind::kWord && t.text == "double" && peek_word("precision", 1)) {
    advance(), advance();
    type.name = {"double precision"};
  } else if (t.kind == TokenKind::kWord && (t.text == "character" || t.text == "char" ||
                                            t.text == "nchar" || t.text == "national")) {
    if (accept_word("national")) {
      if (!accept_word("character") && !accept_word("char")) return error_here();
    } else {
      advance();
    }
    type.name = {accept_word("varying") ? "character varying" : "character"};
    TANDEM_RETURN_IF_ERROR(parse_mods());
  } else if (t.kind == TokenKind::kWord && t.text == "bit") {
    advance();
    type.name = {accept_word("varying") ? "bit varying" : "bit"};
    TANDEM_RETURN_IF_ERROR(parse_mods());
  } else if (t.kind == TokenKind::kWord && (t.text == "timestamp" || t.text == "time")) {
    std::string base = advance().text;
    TANDEM_RETURN_IF_ERROR(parse_mods());
    if (accept_words({"with", "time", "zone"})) {
      type.name = {base + " with time zone"};
    } else {
      accept_words({"without", "time", "zone"});
      type.name = {base};
    }
  } else {
    TANDEM_ASSIGN_OR_RETURN(ObjectName name, parse_object_name());
    type.name = std::move(name.parts);
    TANDEM_RETURN_IF_ERROR(parse_mods());
  }
  while (true) {
    if (peek_op("[")) {
      advance();
      if (peek().kind == TokenKind::kNumber) advance();  // int[3]: bound is ignored, as in PostgreSQL
      TANDEM_RETURN_IF_ERROR(expect_op("]"));
      ++type.array_dims;
    } else if (peek_word("array") && !peek_op("[", 1)) {
      advance();
      ++type.array_dims;
    } else {
      break;
    }
  }
  return type;
}

Result<OptionValue> Parser::parse_option_value() {
  OptionValue v;
  const Token& t = peek();
  if (t.kind == TokenKind::kString) {
    v.kind = OptionValue::Kind::kString;
    v.text = advance().text;
  } else if (t.kind == TokenKind::kNumber) {
    v.kind = OptionValue::Kind::kNumber;
    v.text = advance().text;
  } else if ((t.is_op("-") || t.is_op("+")) && peek(1).kind == TokenKind::kNumber) {
    v.kind = OptionValue::Kind::kNumber;
    std::string sign = advance().text;
    v.text = (sign == "-" ? "-" : "") + advance().text;
  } else if (t.kind == TokenKind::kWord || t.kind == TokenKind::kQuotedIdent) {
    v.kind = OptionValue::Kind::kIdent;
    v.text = advance().text;
  } else {
    return error_here();
  }
  return v;
}

Result<Option> Parser::parse_option(bool allow_no_value) {
  Option opt;
  opt.pos = here();
  const Token& t = peek();
  if (t.kind != TokenKind::kWord && t.kind != TokenKind::kQuotedIdent) return error_here();
  opt.name = advance().text;
  for (const auto& pair : kTwoWordOptions) {
    if (opt.name == pair[0] && peek_word(pair[1])) {
      opt.name += std::string(" ") + advance().text;
      break;
    }
  }
  if (accept_op("=")) {
    TANDEM_ASSIGN_OR_RETURN(opt.value, parse_option_value());
    return opt;
  }
  if (peek_op(",") || peek_op(")") || at_end()) {
    if (!allow_no_value) return error_here();
    return opt;
  }
  TANDEM_ASSIGN_OR_RETURN(opt.value, parse_option_value());
  return opt;
}

Result<std::vector<Option>> Parser::parse_paren_options(bool allow_no_value) {
  TANDEM_RETURN_IF_ERROR(expect_op("("));
  std::vector<Option> out;
  do {
    TANDEM_ASSIGN_OR_RETURN(Option o, parse_option(allow_no_value));
    out.push_back(std::move(o));
  } while (accept_op(","));
  TANDEM_RETURN_IF_ERROR(expect_op(")"));
  return out;
}

Result<std::vector<OptionValue>> Parser::parse_set_values(bool* to_default) {
  std::vector<OptionValue> out;
  *to_default = false;
  if (accept_word("default")) {
    *to_default = true;
    return out;
  }
  do {
    TANDEM_ASSIGN_OR_RETURN(OptionValue v, parse_option_value());
    out.push_back(std::move(v));
  } while (accept_op(","));
  return out;
}

}  // namespace tandem::sql
