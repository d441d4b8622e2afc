#pragma once
// PasswordFile: the users tandemd accepts and their plain passwords (needed by
// SCRAM, which derives keys from the password with a per-exchange salt).
//
// Format, one entry per line:   user:password
//   * the user is everything before the first ':', the password everything
//     after it (so a password may contain ':'), byte for byte (no trimming);
//   * a trailing '\r' is dropped (files edited on Windows);
//   * blank lines (only spaces/tabs) and lines whose first non-blank
//     character is '#' are ignored.
// A line without ':', with an empty user or password, or repeating a user is
// an error F0000 naming the file position: "line 3: ...".
//
// Threading: immutable after parse/load; lookups from any thread.

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace tandem::pgwire {

class PasswordFile {
 public:
  static Result<PasswordFile> parse(std::string_view text);
  // Errors: 58030 if the file cannot be read, else as parse().
  static Result<PasswordFile> load(const std::string& path);

  // The password of `user`; nullopt if the user is not listed. The view is
  // valid as long as this object.
  std::optional<std::string_view> lookup(std::string_view user) const;
  size_t size() const { return users_.size(); }

 private:
  std::map<std::string, std::string, std::less<>> users_;
};

}  // namespace tandem::pgwire
