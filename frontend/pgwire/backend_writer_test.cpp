// BackendWriter tests: byte layouts checked against hand-written expected
// bytes (as a PostgreSQL server would send them).

#include <catch2/catch.hpp>

#include <array>
#include <string>

#include "frontend/pgwire/backend_writer.hpp"

using namespace tandem;
using namespace tandem::pgwire;
using namespace std::string_literals;

namespace {

// Expected bytes written with explicit escapes; "\0"s literals keep NULs.
std::string hex(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += digits[c >> 4];
    out += digits[c & 15];
    out += ' ';
  }
  return out;
}

}  // namespace

TEST_CASE("ReadyForQuery, CommandComplete and bodiless messages", "[pgwire][backend]") {
  std::string out;
  BackendWriter w(out);
  w.ready_for_query(TransactionStatus::kIdle);
  CHECK(hex(out) == hex("Z\0\0\0\x05I"s));
  out.clear();
  w.ready_for_query(TransactionStatus::kFailed);
  CHECK(hex(out) == hex("Z\0\0\0\x05" "E"s));
  out.clear();
  w.command_complete("SELECT 1");
  CHECK(hex(out) == hex("C\0\0\0\x0dSELECT 1\0"s));
  out.clear();
  w.parse_complete();
  w.bind_complete();
  w.close_complete();
  w.no_data();
  w.empty_query_response();
  w.portal_suspended();
  w.copy_done();
  CHECK(hex(out) == hex("1\0\0\0\x04" "2\0\0\0\x04" "3\0\0\0\x04n\0\0\0\x04I\0\0\0\x04s\0\0\0\x04" "c\0\0\0\x04"s));
}

TEST_CASE("ErrorResponse layout", "[pgwire][backend]") {
  std::string out;
  BackendWriter w(out);
  w.error_response(Status::error(sqlstate::kUndefinedTable, "unknown catalog item 't'").with_position(15));
  // S, V, C, M, P; no D or H since they are empty.
  const std::string body = "SERROR\0VERROR\0C42P01\0Munknown catalog item 't'\0P15\0\0"s;
  CHECK(hex(out) == hex("E"s + "\0\0\0"s + static_cast<char>(body.size() + 4) + body));

  out.clear();
  w.error_response(Status::error(sqlstate::kInvalidPassword, "bad").with_detail("d").with_hint("h").fatal());
  const std::string body2 = "SFATAL\0VFATAL\0C28P01\0Mbad\0Dd\0Hh\0\0"s;
  CHECK(hex(out) == hex("E"s + "\0\0\0"s + static_cast<char>(body2.size() + 4) + body2));
}

TEST_CASE("NoticeResponse layout", "[pgwire][backend]") {
  std::string out;
  BackendWriter w(out);
  w.notice_response(Notice{NoticeSeverity::kWarning, sqlstate::kWarning, "careful", "", "h"});
  const std::string body = "SWARNING\0VWARNING\0C01000\0Mcareful\0Hh\0\0"s;
  CHECK(hex(out) == hex("N"s + "\0\0\0"s + static_cast<char>(body.size() + 4) + body));
}

TEST_CASE("RowDescription layout", "[pgwire][backend]") {
  std::string out;
  BackendWriter w(out);
  const std::array<FieldDescription, 2> fields = {
      FieldDescription{"a", 16384, 1, 23, 4, -1, 0},
      FieldDescription{"bb", 0, 0, 25, -1, -1, 1},
  };
  w.row_description(fields);
  const std::string body =
      "\0\x02"s                                                     // 2 fields
      "a\0" "\0\0\x40\0" "\0\x01" "\0\0\0\x17" "\0\x04" "\xff\xff\xff\xff" "\0\0"s   // int4 column of table 16384
      "bb\0" "\0\0\0\0" "\0\0" "\0\0\0\x19" "\xff\xff" "\xff\xff\xff\xff" "\0\x01"s;  // text, binary
  CHECK(hex(out) == hex("T"s + "\0\0\0"s + static_cast<char>(body.size() + 4) + body));
}

TEST_CASE("DataRow layout, including in-place columns", "[pgwire][backend]") {
  std::string out;
  BackendWriter w(out);
  w.begin_data_row(4);
  w.add_column("42");
  w.add_null();
  const size_t at = w.begin_column();
  w.buffer() += "xyz";
  w.end_column(at);
  w.add_column_with([](std::string& b) { b += ""; });
  w.end_message();
  const std::string body = "\0\x04" "\0\0\0\x02" "42" "\xff\xff\xff\xff" "\0\0\0\x03xyz" "\0\0\0\0"s;
  CHECK(hex(out) == hex("D"s + "\0\0\0"s + static_cast<char>(body.size() + 4) + body));

  // Rows append one after another to the same buffer.
  const size_t first = out.size();
  w.begin_data_row(1);
  w.add_column("");
  w.end_message();
  CHECK(hex(out.substr(first)) == hex("D\0\0\0\x0a\0\x01\0\0\0\0"s));
}

TEST_CASE("authentication and session setup messages", "[pgwire][backend]") {
  std::string out;
  BackendWriter w(out);
  w.authentication_ok();
  CHECK(hex(out) == hex("R\0\0\0\x08\0\0\0\0"s));
  out.clear();
  w.authentication_cleartext_password();
  CHECK(hex(out) == hex("R\0\0\0\x08\0\0\0\x03"s));
  out.clear();
  const std::array<std::string_view, 1> mechs = {"SCRAM-SHA-256"};
  w.authentication_sasl(mechs);
  CHECK(hex(out) == hex("R\0\0\0\x17\0\0\0\x0aSCRAM-SHA-256\0\0"s));
  out.clear();
  w.authentication_sasl_continue("r=x");
  CHECK(hex(out) == hex("R\0\0\0\x0b\0\0\0\x0br=x"s));
  out.clear();
  w.authentication_sasl_final("v=y");
  CHECK(hex(out) == hex("R\0\0\0\x0b\0\0\0\x0cv=y"s));
  out.clear();
  w.parameter_status("client_encoding", "UTF8");
  CHECK(hex(out) == hex("S\0\0\0\x19" "client_encoding\0UTF8\0"s));
  out.clear();
  w.backend_key_data(0x01020304, -1);
  CHECK(hex(out) == hex("K\0\0\0\x0c\x01\x02\x03\x04\xff\xff\xff\xff"s));
  out.clear();
  const std::array<std::string_view, 1> opts = {"_pq_.x"};
  w.negotiate_protocol_version(0, opts);
  CHECK(hex(out) == hex("v\0\0\0\x13\0\0\0\0\0\0\0\x01_pq_.x\0"s));
}

TEST_CASE("extended protocol and COPY messages", "[pgwire][backend]") {
  std::string out;
  BackendWriter w(out);
  const std::array<Oid, 2> oids = {23, 25};
  w.parameter_description(oids);
  CHECK(hex(out) == hex("t\0\0\0\x0e\0\x02\0\0\0\x17\0\0\0\x19"s));
  out.clear();
  const std::array<int16_t, 2> formats = {0, 0};
  w.copy_out_response(0, formats);
  CHECK(hex(out) == hex("H\0\0\0\x0b\0\0\x02\0\0\0\0"s));
  out.clear();
  w.copy_in_response(1, formats);
  CHECK(hex(out) == hex("G\0\0\0\x0b\x01\0\x02\0\0\0\0"s));
  out.clear();
  w.copy_data("1\t2\n");
  CHECK(hex(out) == hex("d\0\0\0\x08" "1\t2\n"s));
}

TEST_CASE("embedded NULs cannot break the framing of string fields", "[pgwire][backend]") {
  std::string out;
  BackendWriter w(out);
  w.command_complete("SEL\0ECT"s);
  CHECK(hex(out) == hex("C\0\0\0\x08SEL\0"s));
}
