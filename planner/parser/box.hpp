#pragma once
// Box<T> and SourcePos: the two building blocks that make the SQL AST plain
// data.
//
// Box<T> is a nullable owning pointer with *value* semantics: copying a Box
// deep-copies the pointee and `==` compares pointees (two null boxes are
// equal). With it every AST struct gets a correct copy constructor (deep
// clone) and `operator== = default` for free, which is what the
// parse -> print -> parse round trip relies on. A null Box means "absent"
// (an optional child such as a WHERE clause).
//
// SourcePos is the byte offset of a node in the text given to the parser
// (the whole multi-statement string, see parser.hpp). Positions are
// diagnostic metadata, not part of a node's identity: SourcePos compares
// equal to every other SourcePos, so an AST reparsed from printed SQL equals
// the original.
//
// Threading: plain values; no shared state.

#include <cstdint>
#include <memory>
#include <utility>

namespace tandem::sql {

struct SourcePos {
  uint32_t offset = 0;  // byte offset into the parsed text
  bool operator==(const SourcePos&) const { return true; }
};

template <class T>
class Box {
 public:
  Box() = default;
  Box(T value) : p_(std::make_unique<T>(std::move(value))) {}  // NOLINT: implicit by design
  explicit Box(std::unique_ptr<T> p) : p_(std::move(p)) {}
  Box(const Box& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  Box(Box&&) noexcept = default;
  Box& operator=(const Box& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  Box& operator=(Box&&) noexcept = default;
  ~Box() = default;

  bool operator==(const Box& o) const {
    if (!p_ || !o.p_) return !p_ && !o.p_;
    return *p_ == *o.p_;
  }

  explicit operator bool() const { return p_ != nullptr; }
  bool has_value() const { return p_ != nullptr; }
  // REQUIRES: has_value() for the accessors below.
  T& operator*() { return *p_; }
  const T& operator*() const { return *p_; }
  T* operator->() { return p_.get(); }
  const T* operator->() const { return p_.get(); }
  T* get() { return p_.get(); }
  const T* get() const { return p_.get(); }

 private:
  std::unique_ptr<T> p_;
};

}  // namespace tandem::sql
