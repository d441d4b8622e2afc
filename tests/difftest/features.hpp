#pragma once
// Features: the SQL constructs and round steps the generator may use, each
// on by default and switchable by name (`--disable NAME,...`), so that a
// known wrong answer can be fenced off while its fix is pending. Every name
// that the CI run disables is listed in README.md with the finding it avoids.

#include <set>
#include <string>
#include <vector>

namespace tandem::difftest {

struct FeatureInfo {
  const char* name;
  const char* what;
};

// Every feature, in the order `--list-features` prints them.
const std::vector<FeatureInfo>& all_features();

class Features {
 public:
  bool on(const std::string& name) const { return disabled_.count(name) == 0; }
  // Disables a comma-separated list; false with *error on an unknown name.
  bool disable(const std::string& csv, std::string* error);
  const std::set<std::string>& disabled() const { return disabled_; }

 private:
  std::set<std::string> disabled_;
};

}  // namespace tandem::difftest
