#pragma once
// Status and Result<T>: errors as values, carrying the fields of a PostgreSQL
// ErrorResponse (STYLE #9). An error is created where it arises, with its
// SQLSTATE; layers pass it up unchanged. No exception crosses a layer
// boundary. Threading: plain values, safe to move between threads.

#include <cassert>
#include <memory>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "common/sqlstate.hpp"

namespace tandem {

class Status {
 public:
  enum class Severity : uint8_t { kError, kFatal };

  Status() = default;  // OK
  static Status ok() { return Status(); }
  static Status error(std::string_view sqlstate, std::string message) {
    Status s;
    s.rep_ = std::make_shared<Rep>();
    s.rep_->sqlstate = std::string(sqlstate);
    s.rep_->message = std::move(message);
    return s;
  }

  bool is_ok() const { return rep_ == nullptr; }
  explicit operator bool() const { return is_ok(); }

  // REQUIRES: !is_ok() for the accessors below.
  const std::string& sqlstate() const { assert(rep_); return rep_->sqlstate; }
  const std::string& message() const { assert(rep_); return rep_->message; }
  const std::string& detail() const { assert(rep_); return rep_->detail; }
  const std::string& hint() const { assert(rep_); return rep_->hint; }
  // 1-based character position in the statement text, 0 when unknown.
  int position() const { return rep_ ? rep_->position : 0; }
  Severity severity() const { return rep_ ? rep_->severity : Severity::kError; }

  Status&& with_detail(std::string d) && { mut().detail = std::move(d); return std::move(*this); }
  Status&& with_hint(std::string h) && { mut().hint = std::move(h); return std::move(*this); }
  Status&& with_position(int p) && { mut().position = p; return std::move(*this); }
  Status&& fatal() && { mut().severity = Severity::kFatal; return std::move(*this); }
  void set_position(int p) { mut().position = p; }

  // "ERROR:  message" style rendering for logs and tests.
  std::string to_string() const {
    if (is_ok()) return "OK";
    std::string s = rep_->sqlstate + ": " + rep_->message;
    if (!rep_->detail.empty()) s += " (DETAIL: " + rep_->detail + ")";
    return s;
  }

 private:
  struct Rep {
    std::string sqlstate;
    std::string message;
    std::string detail;
    std::string hint;
    int position = 0;
    Severity severity = Severity::kError;
  };
  Rep& mut() {
    assert(rep_);
    if (rep_.use_count() > 1) rep_ = std::make_shared<Rep>(*rep_);
    return *rep_;
  }
  // Shared so that copying an error is cheap; OK is a null pointer (one word).
  std::shared_ptr<Rep> rep_;
};

// Result<T>: a T or an error Status.
template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) { assert(!std::get<Status>(v_).is_ok()); }  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Status& status() const { assert(!ok()); return std::get<1>(v_); }
  Status take_status() && { assert(!ok()); return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace tandem

// Propagate an error Status from an expression returning Status.
#define TANDEM_RETURN_IF_ERROR(expr)             \
  do {                                           \
    ::tandem::Status _st = (expr);               \
    if (!_st.is_ok()) return _st;                \
  } while (0)

// Assign the value of a Result<T> expression or return its error.
#define TANDEM_CONCAT_INNER(a, b) a##b
#define TANDEM_CONCAT(a, b) TANDEM_CONCAT_INNER(a, b)
#define TANDEM_ASSIGN_OR_RETURN(lhs, expr)                          \
  auto TANDEM_CONCAT(_res_, __LINE__) = (expr);                     \
  if (!TANDEM_CONCAT(_res_, __LINE__).ok())                         \
    return std::move(TANDEM_CONCAT(_res_, __LINE__)).take_status(); \
  lhs = std::move(TANDEM_CONCAT(_res_, __LINE__)).value()
