// Bad bytes from strangers become one clear error naming the file, never an abort: JSON
// that is not UTF-8 or not JSON (with the position), Parquet cells that are not UTF-8 in
// `--json` output, and the exception boundary of the library (util/exception_guard.h).
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "reliability/reliability_util.h"
#include "util/exception_guard.h"
#include "util/json_text.h"

namespace taco {
namespace {

using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;

// COLLECTION.json of flat.tacozip: bytes 6238..8688 (FORMAT §9.1).
constexpr uint64_t kFlatCollection = 6238;
// A byte inside a string cell of level0.parquet (bytes 490..6192) of flat.tacozip.
constexpr uint64_t kFlatParquetString = 2877;

TEST(JsonText, InvalidUtf8IsReportedWithItsPosition) {
  auto r = util::ParseJsonText("{\n  \"id\": \"a\xff\"\n}", "x/COLLECTION.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
  EXPECT_EQ(r.status().message(), "x/COLLECTION.json: is not valid UTF-8 (byte 0xFF at line 2, column 11)");
}

TEST(JsonText, Utf8RulesOfRfc3629) {
  EXPECT_TRUE(util::IsValidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8c\x8d"));
  EXPECT_FALSE(util::IsValidUtf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(util::IsValidUtf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(util::IsValidUtf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(util::IsValidUtf8("\xe2\x82"));          // truncated
  EXPECT_EQ(util::SanitizeUtf8("a\xff"
                               "b\xe2\x82"),
            "a?b??");
}

TEST(JsonText, SyntaxErrorsDepthAndSize) {
  auto bad = util::ParseJsonText("{\"a\": 1,\n \"b\": }", "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "c.json: is not valid JSON (syntax error at line 2, column 7)");
  auto deep = util::ParseJsonText(std::string(300, '[') + std::string(300, ']'), "d.json");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("deeper than 256"), std::string::npos) << deep.status().message();
  EXPECT_TRUE(util::ParseJsonText(std::string(200, '[') + std::string(200, ']'), "ok.json").ok());
  auto big = util::ParseJsonText("[1, 2, 3]", "e.json", /*max_bytes=*/8);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().message(), "e.json: is 9 bytes, more than the 8 allowed");
  auto huge_number = util::ParseJsonText("[1e999]", "f.json");
  EXPECT_FALSE(huge_number.ok());
}

TEST(JsonText, DumpNeverThrowsOnBadStrings) {
  nlohmann::ordered_json j = {{"id", std::string("a\xff"
                                                 "b")}};
  EXPECT_EQ(util::DumpJsonText(j),
            "{\"id\":\"a\xef\xbf\xbd"
            "b\"}");
}

TEST(ExceptionGuard, EveryExceptionBecomesAStatusNamingTheInput) {
  auto json_error = util::GuardExceptions("in.json", []() -> Status {
    nlohmann::json j = 1;
    return j.at("x").is_null() ? Status::OK() : Status::OK();  // type_error 304
  });
  EXPECT_EQ(json_error.code(), StatusCode::kCorruption);
  EXPECT_EQ(json_error.message().rfind("in.json: malformed JSON value (", 0), 0u) << json_error.message();
  auto oom = util::GuardExceptions("big.tacozip", []() -> Result<int> { throw std::bad_alloc(); });
  EXPECT_EQ(oom.status().message(), "big.tacozip: out of memory");
  auto other = util::GuardExceptions("x", []() -> Status { throw std::runtime_error("bad \xff byte"); });
  EXPECT_EQ(other.code(), StatusCode::kInternal);
  EXPECT_EQ(other.message(), "x: unexpected error: bad ? byte");
  auto ok = util::GuardExceptions("x", []() -> Result<int> { return 7; });
  EXPECT_EQ(*ok, 7);
}

// The crash of issue 14: 0xFF bytes in a copy of flat.tacozip aborted `taco info --json`
// with an uncaught nlohmann type_error 316.
TEST(BadBytes, InvalidUtf8InAParquetStringCellIsPrintedNotAborted) {
  TempDir tmp;
  const std::string path = tmp / "mut.tacozip";
  std::string bytes = testing::ReadFile(reliability::FlatZip());
  bytes[kFlatParquetString] = '\xff';
  bytes[kFlatParquetString + 1] = '\xff';
  testing::WriteFile(path, bytes);
  for (const std::string cmd : {"info --json ", "sql --format json ", "info "}) {
    auto r = RunTaco(cmd + ShellQuote(path) + (cmd.rfind("sql", 0) == 0 ? " 'SELECT * FROM data'" : ""));
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 2) << cmd << r.exit_code << r.err;
    EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << cmd << r.err;
    if (r.exit_code == 0 && cmd.find("json") != std::string::npos) {
      EXPECT_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded()) << cmd;  // U+FFFD, valid JSON
    }
  }
}

TEST(BadBytes, CollectionJsonThatIsNotUtf8IsReportedAsSuch) {
  TempDir tmp;
  const std::string path = tmp / "mut.tacozip";
  reliability::CopyWithByte(reliability::FlatZip(), path, kFlatCollection + 12, 0xFF);
  reliability::RefreshLocalCrc(path, "COLLECTION.json");  // else the CRC check reports it first
  auto r = RunTaco("info --json " + ShellQuote(path));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "taco: " + path + ": COLLECTION.json: is not valid UTF-8 (byte 0xFF at line 2, column 11)\n");
}

TEST(BadBytes, CollectionJsonSyntaxErrorNamesTheLine) {
  TempDir tmp;
  const std::string path = tmp / "mut.tacozip";
  reliability::CopyWithByte(reliability::FlatZip(), path, kFlatCollection + 12, '}');
  reliability::RefreshLocalCrc(path, "COLLECTION.json");  // else the CRC check reports it first
  auto r = RunTaco("ls " + ShellQuote(path));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(": COLLECTION.json: is not valid JSON (syntax error at line 2"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(BadBytes, ValidateReportsNonUtf8CollectionAsAViolation) {
  TempDir tmp;
  const std::string path = tmp / "mut.tacozip";
  reliability::CopyWithByte(reliability::FlatZip(), path, kFlatCollection + 12, 0xFF);
  auto r = RunTaco("validate --fast " + ShellQuote(path));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(
      r.out.find("collection-json  COLLECTION.json: text that is not valid UTF-8 (byte 0xFF at line 2, column 11)"),
      std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace taco
