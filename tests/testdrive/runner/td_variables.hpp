#pragma once
// Variables of a testdrive run and `${name}` substitution.
//
// Names are letters, digits and `_ . -`. Built-ins are set by the runner
// (testdrive.seed, testdrive.temp-dir, testdrive.materialize-sql-addr, ...;
// arg.NAME from --var NAME=VALUE); `${env.NAME}` reads the environment.
// `$ set` may define a name again, the later value winning, as `$ set`
// does in testdrive. A reference to an unknown variable is an error.
//
// Threading: owned and used by one thread.

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace tandem::td {

class Variables {
 public:
  void set(const std::string& name, std::string value) { values_[name] = std::move(value); }
  bool contains(const std::string& name) const { return values_.count(name) > 0; }
  std::optional<std::string> get(const std::string& name) const;

  // Replaces every `${name}`; nullopt with *error naming the first unknown
  // variable or an unterminated reference.
  std::optional<std::string> substitute(std::string_view text, std::string* error) const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace tandem::td
