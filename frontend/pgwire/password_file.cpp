#include "frontend/pgwire/password_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace tandem::pgwire {
namespace {

Status line_error(size_t line, std::string_view problem) {
  return Status::error(sqlstate::kConfigFileError,
                       "invalid password file: line " + std::to_string(line) + ": " + std::string(problem));
}

}  // namespace

Result<PasswordFile> PasswordFile::parse(std::string_view text) {
  PasswordFile file;
  size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) return line_error(line_number, "expected user:password");
    const std::string_view user = line.substr(0, colon);
    const std::string_view password = line.substr(colon + 1);
    if (user.empty()) return line_error(line_number, "empty user name");
    if (password.empty()) return line_error(line_number, "empty password for user \"" + std::string(user) + "\"");
    if (!file.users_.emplace(std::string(user), std::string(password)).second) {
      return line_error(line_number, "duplicate user \"" + std::string(user) + "\"");
    }
  }
  return file;
}

Result<PasswordFile> PasswordFile::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::error(sqlstate::kIoError,
                         "could not open password file \"" + path + "\": " + std::strerror(errno));
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return Status::error(sqlstate::kIoError, "could not read password file \"" + path + "\"");
  Result<PasswordFile> file = parse(contents.str());
  if (!file.ok()) {
    // Name the file as well as the line.
    const Status& s = file.status();
    return Status::error(s.sqlstate(), path + ": " + s.message());
  }
  return file;
}

std::optional<std::string_view> PasswordFile::lookup(std::string_view user) const {
  auto it = users_.find(user);
  if (it == users_.end()) return std::nullopt;
  return std::string_view(it->second);
}

}  // namespace tandem::pgwire
