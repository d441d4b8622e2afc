// The files GET serves outside /api: the web console, compiled into the
// binary (frontend/http/console/, embedded by cmake/EmbedFiles.cmake), and
// the chart library under /vendor/chart.js/, read at run time from Debian's
// libjs-chart.js (never copied into the repository or the binary).
//
// Contract of find_static_file: a path names a file only if it is exactly
// an embedded file's path ("/" is "/index.html") or "/vendor/chart.js/"
// followed by one plain file name (letters, digits, '.', '-', '_'; not
// starting with '.') of a regular file in the chart directory. Anything
// else, including "..", percent-escapes, further slashes and symbolic links
// leading out of the directory, is "no such file". Stateless; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tandem::frontend::http {

struct EmbeddedFile {
  std::string_view path;   // "/index.html", "/js/app.js"
  std::string_view bytes;  // static storage
};

// Every embedded console file, sorted by path (generated at build time).
const std::vector<EmbeddedFile>& console_files();

// Where Debian's libjs-chart.js installs Chart.js.
inline constexpr std::string_view kChartJsDirectory = "/usr/share/javascript/chart.js";
inline constexpr std::string_view kChartJsPrefix = "/vendor/chart.js/";

struct StaticFile {
  std::string content_type;
  std::string body;
  bool embedded = false;  // a console file (else read from the system)
};

// The file `path` names (the URL path, without the query), or nullopt.
// `chart_directory` is where /vendor/chart.js/ files are looked up.
std::optional<StaticFile> find_static_file(std::string_view path,
                                           std::string_view chart_directory = kChartJsDirectory);

// The Content-Type for a file name, by its extension.
std::string content_type_of(std::string_view name);

}  // namespace tandem::frontend::http
