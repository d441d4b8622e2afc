#pragma once
// ArgReader: walks a command line of `--name value`, `--name=value`, flags
// and plain words, for the options parsers of tandem-slt and tandem-td.
//
//   ArgReader args(argc, argv);
//   while (args.next()) {
//     if (args.name() == "--url") { if (!args.value(url, error)) return false; }
//     ...
//   }

#include <string>

namespace tandem::slt {

class ArgReader {
 public:
  ArgReader(int argc, const char* const* argv) : argc_(argc), argv_(argv) {}

  // Moves to the next argument; false when there is none.
  bool next() {
    if (++index_ >= argc_) return false;
    name_ = argv_[index_];
    inline_value_.clear();
    has_inline_value_ = false;
    if (name_.starts_with("--")) {
      const std::size_t equals = name_.find('=');
      if (equals != std::string::npos) {
        inline_value_ = name_.substr(equals + 1);
        name_.resize(equals);
        has_inline_value_ = true;
      }
    }
    return true;
  }

  // The argument, without an inline `=value`.
  const std::string& name() const { return name_; }

  // The option's value: the inline one, else the next argument (consumed).
  // False with *error when there is none.
  bool value(std::string& out, std::string* error) {
    if (has_inline_value_) {
      out = inline_value_;
      return true;
    }
    if (index_ + 1 >= argc_) {
      *error = name_ + " needs a value";
      return false;
    }
    out = argv_[++index_];
    return true;
  }

 private:
  int argc_;
  const char* const* argv_;
  int index_ = 0;  // argv_[0] is the program.
  std::string name_;
  std::string inline_value_;
  bool has_inline_value_ = false;
};

}  // namespace tandem::slt
