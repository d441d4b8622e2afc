#include "sqllogic/runner/script_files.hpp"

#include <algorithm>
#include <filesystem>

namespace tandem::slt {
namespace {

namespace fs = std::filesystem;

template <typename Iterator>
void add_matching(Iterator entries, const std::vector<std::string>& extensions,
                  std::vector<std::string>& found) {
  for (const auto& entry : entries) {
    const std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() &&
        std::find(extensions.begin(), extensions.end(), extension) != extensions.end()) {
      found.push_back(entry.path().string());
    }
  }
}

}  // namespace

bool collect_script_files(const std::vector<std::string>& paths,
                          const std::vector<std::string>& extensions, bool recursive,
                          std::vector<std::string>& files, std::string* error) {
  for (const std::string& path : paths) {
    std::error_code code;
    if (fs::is_directory(path, code)) {
      std::vector<std::string> found;
      if (recursive) {
        add_matching(fs::recursive_directory_iterator(path, code), extensions, found);
      } else {
        add_matching(fs::directory_iterator(path, code), extensions, found);
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(path, code)) {
      files.push_back(path);
    } else {
      *error = "no such file or directory: " + path;
      return false;
    }
  }
  return true;
}

std::string tandemd_beside_self() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return "tandemd";
  return (self.parent_path() / "tandemd").string();
}

}  // namespace tandem::slt
