#include "sqllogic/runner/script_files.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace tandem::slt {

TEST_CASE("collect_script_files: directories by extension, recursive or not, sorted") {
  namespace fs = std::filesystem;
  std::string root = (fs::temp_directory_path() / "slt-files-XXXXXX").string();
  REQUIRE(::mkdtemp(root.data()) != nullptr);
  fs::create_directories(root + "/sub");
  for (const char* name : {"/b.td", "/a.td", "/c.slt", "/sub/d.td"}) std::ofstream(root + name) << "x";

  std::vector<std::string> files;
  std::string error;
  REQUIRE(collect_script_files({root}, {".td"}, /*recursive=*/false, files, &error));
  CHECK(files == std::vector<std::string>{root + "/a.td", root + "/b.td"});

  files.clear();
  REQUIRE(collect_script_files({root, root + "/c.slt"}, {".td", ".slt"}, /*recursive=*/true, files, &error));
  CHECK(files == std::vector<std::string>{root + "/a.td", root + "/b.td", root + "/c.slt",
                                          root + "/sub/d.td", root + "/c.slt"});

  CHECK_FALSE(collect_script_files({root + "/missing"}, {".td"}, true, files, &error));
  CHECK(error.find("missing") != std::string::npos);
  CHECK(tandemd_beside_self().ends_with("/tandemd"));
  fs::remove_all(root);
}

}  // namespace tandem::slt
