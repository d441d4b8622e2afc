// find_static_file: the embedded console, the chart directory, and every
// way a path could reach outside them.
#include "frontend/http/static_files.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace tandem::frontend::http {
namespace {

namespace fs = std::filesystem;
using namespace std::string_view_literals;

// A chart directory with one file, a link inside it, a link out of it, and
// a secret file beside it that no path may reach.
struct ChartDirectory {
  ChartDirectory() {
    root = fs::temp_directory_path() / ("tandem-static-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "chart.js" / "chunks");
    std::ofstream(root / "chart.js" / "chart.min.js") << "var Chart = 1;";
    std::ofstream(root / "secret.txt") << "secret";
    fs::create_symlink("chart.min.js", root / "chart.js" / "Chart.min.js");
    fs::create_symlink("../secret.txt", root / "chart.js" / "escape.js");
  }
  ~ChartDirectory() { fs::remove_all(root); }
  std::string dir() const { return (root / "chart.js").string(); }
  fs::path root;
};

TEST_CASE("the embedded console is sorted and found by its exact path") {
  const auto& files = console_files();
  REQUIRE_FALSE(files.empty());
  for (size_t i = 1; i < files.size(); ++i) CHECK(files[i - 1].path < files[i].path);
  auto index = find_static_file("/");
  REQUIRE(index);
  CHECK(index->embedded);
  CHECK(index->content_type == "text/html; charset=utf-8");
  CHECK(index->body.find("<html") != std::string::npos);
  CHECK(find_static_file("/index.html")->body == index->body);
  for (const EmbeddedFile& f : files) {
    auto found = find_static_file(f.path);
    REQUIRE(found);
    CHECK(found->body.size() == f.bytes.size());
  }
  CHECK_FALSE(find_static_file("/index.htm"));
  CHECK_FALSE(find_static_file("/nope.js"));
  CHECK_FALSE(find_static_file(""));
  CHECK_FALSE(find_static_file("//index.html"));
  CHECK_FALSE(find_static_file("/js/../index.html"));
  CHECK_FALSE(find_static_file("/./index.html"));
}

TEST_CASE("chart files come from the chart directory and nowhere else") {
  ChartDirectory d;
  auto chart = find_static_file("/vendor/chart.js/chart.min.js", d.dir());
  REQUIRE(chart);
  CHECK_FALSE(chart->embedded);
  CHECK(chart->body == "var Chart = 1;");
  CHECK(chart->content_type == "text/javascript; charset=utf-8");
  // A link to a file in the same directory is followed.
  REQUIRE(find_static_file("/vendor/chart.js/Chart.min.js", d.dir()));
  for (std::string_view path : {"/vendor/chart.js/../secret.txt"sv, "/vendor/chart.js/..%2fsecret.txt"sv,
                           "/vendor/chart.js/%2e%2e/secret.txt"sv, "/vendor/chart.js/escape.js"sv,
                           "/vendor/chart.js/"sv, "/vendor/chart.js/chunks"sv, "/vendor/chart.js/chunks/"sv,
                           "/vendor/chart.js/.hidden"sv, "/vendor/chart.js/chart.min.js/"sv, "/vendor/chart.js//etc/passwd"sv,
                           "/vendor/chart.js/.."sv, "/vendor/chart.js/missing.js"sv, "/vendor/chart.js/a\\..\\b"sv,
                           "/vendor/chart.js/chart.min.js\0x"sv, "/vendor/secret.txt"sv, "/vendor/chart.js"sv}) {
    INFO(std::string(path));
    CHECK_FALSE(find_static_file(path, d.dir()));
  }
  CHECK_FALSE(find_static_file("/vendor/chart.js/chart.min.js", (d.root / "missing").string()));
}

TEST_CASE("content types follow the extension") {
  CHECK(content_type_of("a.css") == "text/css; charset=utf-8");
  CHECK(content_type_of("a.mjs") == "text/javascript; charset=utf-8");
  CHECK(content_type_of("a.svg") == "image/svg+xml");
  CHECK(content_type_of("a") == "application/octet-stream");
}

}  // namespace
}  // namespace tandem::frontend::http
