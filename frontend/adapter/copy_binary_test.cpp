#include "frontend/adapter/copy_binary.hpp"

#include <catch2/catch.hpp>

using namespace tandem::frontend;

namespace {

using Tuple = std::vector<std::optional<std::string>>;

// A binary COPY stream: header, the tuples, trailer.
std::string stream(const std::vector<Tuple>& tuples, bool trailer = true) {
  std::string out;
  append_binary_copy_header(&out);
  auto put = [&](uint32_t v, int bytes) {
    for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
  };
  for (const auto& t : tuples) {
    put(static_cast<uint32_t>(t.size()), 2);
    for (const auto& f : t) {
      if (!f) {
        put(0xffffffffu, 4);
      } else {
        put(static_cast<uint32_t>(f->size()), 4);
        out += *f;
      }
    }
  }
  if (trailer) append_binary_copy_trailer(&out);
  return out;
}

std::vector<Tuple> read_all(std::string_view data, size_t piece, tandem::Status* status) {
  std::vector<Tuple> got;
  BinaryCopyReader reader([&](size_t tuple, const auto& fields) {
    CHECK(tuple == got.size() + 1);
    Tuple t;
    for (const auto& f : fields) t.push_back(f ? std::optional<std::string>(std::string(*f)) : std::nullopt);
    got.push_back(std::move(t));
    return tandem::Status::ok();
  });
  *status = tandem::Status::ok();
  for (size_t at = 0; at < data.size() && status->is_ok(); at += piece) *status = reader.feed(data.substr(at, piece));
  if (status->is_ok()) *status = reader.finish();
  return got;
}

}  // namespace

TEST_CASE("binary COPY: the header PostgreSQL writes", "[copy]") {
  std::string header;
  append_binary_copy_header(&header);
  CHECK(header == std::string("PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0", 19));
}

TEST_CASE("binary COPY: tuples split at any byte read back whole", "[copy]") {
  std::vector<Tuple> tuples = {{std::string("\0\0\0\1", 4), std::string("abc")},
                               {std::nullopt, std::string()},
                               {std::string("\xff\xff", 2), std::nullopt}};
  std::string data = stream(tuples);
  for (size_t piece : {1, 2, 3, 7, 1000}) {
    tandem::Status status;
    auto got = read_all(data, piece, &status);
    INFO("piece " << piece);
    REQUIRE(status.is_ok());
    CHECK(got == tuples);
  }
  tandem::Status status;
  CHECK(read_all(stream(tuples, false), 5, &status) == tuples);  // no trailer: accepted
  CHECK(status.is_ok());
}

TEST_CASE("binary COPY: malformed input is 22P04", "[copy]") {
  tandem::Status status;
  read_all("PGCOPY\nXXXXXXXXXXXX", 4, &status);
  CHECK(status.sqlstate() == std::string("22P04"));
  std::string cut = stream({{std::string("abcd")}}, false);
  cut.pop_back();
  read_all(cut, 3, &status);
  CHECK(status.sqlstate() == std::string("22P04"));
  read_all(stream({{std::string("a")}}) + "x", 100, &status);
  CHECK(status.message() == "received copy data after EOF marker");
  read_all("", 1, &status);
  CHECK(status.message() == "COPY file signature not recognized");
}
