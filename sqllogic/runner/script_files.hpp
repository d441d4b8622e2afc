#pragma once
// Finding test scripts and the server binary, shared by tandem-slt and
// tandem-td.

#include <string>
#include <vector>

namespace tandem::slt {

// Appends the files named in `paths`; a directory contributes its files
// whose extension is one of `extensions` (".slt"), sorted, searched
// recursively or only at its top level. False with *error naming a path
// that does not exist.
bool collect_script_files(const std::vector<std::string>& paths,
                          const std::vector<std::string>& extensions, bool recursive,
                          std::vector<std::string>& files, std::string* error);

// `tandemd` in the directory of the running executable.
std::string tandemd_beside_self();

}  // namespace tandem::slt
