#include "frontend/http/static_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tandem::frontend::http {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool plain_file_name(std::string_view name) {
  if (name.empty() || name.front() == '.' || name.size() > 255) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
           c == '_';
  });
}

std::optional<StaticFile> read_chart_file(std::string_view name, std::string_view directory) {
  if (!plain_file_name(name)) return std::nullopt;
  namespace fs = std::filesystem;
  std::error_code ec;
  // Debian links Chart.min.js to chart.min.js inside the directory; a link
  // that leads elsewhere is refused.
  const fs::path dir = fs::canonical(fs::path(directory), ec);
  if (ec) return std::nullopt;
  const fs::path file = fs::canonical(dir / std::string(name), ec);
  if (ec || file.parent_path() != dir || !fs::is_regular_file(file, ec)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream body;
  body << in.rdbuf();
  return StaticFile{content_type_of(name), std::move(body).str(), false};
}

}  // namespace

std::string content_type_of(std::string_view name) {
  if (ends_with(name, ".html")) return "text/html; charset=utf-8";
  if (ends_with(name, ".js") || ends_with(name, ".mjs")) return "text/javascript; charset=utf-8";
  if (ends_with(name, ".css")) return "text/css; charset=utf-8";
  if (ends_with(name, ".svg")) return "image/svg+xml";
  if (ends_with(name, ".png")) return "image/png";
  if (ends_with(name, ".json") || ends_with(name, ".map")) return "application/json";
  if (ends_with(name, ".txt")) return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

std::optional<StaticFile> find_static_file(std::string_view path, std::string_view chart_directory) {
  if (path == "/") path = "/index.html";
  if (path.substr(0, kChartJsPrefix.size()) == kChartJsPrefix) {
    return read_chart_file(path.substr(kChartJsPrefix.size()), chart_directory);
  }
  const auto& files = console_files();
  auto it = std::lower_bound(files.begin(), files.end(), path,
                             [](const EmbeddedFile& f, std::string_view p) { return f.path < p; });
  if (it == files.end() || it->path != path) return std::nullopt;
  return StaticFile{content_type_of(path), std::string(it->bytes), true};
}

}  // namespace tandem::frontend::http
