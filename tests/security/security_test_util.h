// Helpers for the security tests (issue 16 B): small datasets written by our writer, and
// edits of their stored metadata as an attacker would make them (Parquet tables rewritten,
// ZIP members replaced).
#ifndef TACO_TESTS_SECURITY_SECURITY_TEST_UTIL_H_
#define TACO_TESTS_SECURITY_SECURITY_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "format/zip/zip_reader.h"
#include "format/zip/zip_writer.h"
#include "support/paths.h"
#include "table/engine.h"
#include "taco/io.h"
#include "taco/model.h"
#include "taco/writer.h"

namespace taco::sectest {

inline nlohmann::ordered_json Collection() {
  return {{"id", "security_test"},     {"dataset_version", "1.0.0"},        {"description", "security test"},
          {"licenses", {"CC-BY-4.0"}}, {"providers", {{{"name", "Test"}}}}, {"tasks", {"classification"}}};
}

// <prefix>0..2: FILE samples holding "content_<i>".
inline Taco FlatTaco(const std::string& prefix = "sample_") {
  std::vector<Sample> samples;
  for (int i = 0; i < 3; ++i)
    samples.push_back(*Sample::FromBytes(prefix + std::to_string(i), "content_" + std::to_string(i)));
  return *Taco::Make(*Tortilla::Make(std::move(samples)), Collection());
}

// europe, asia × item_0..1 ("data_<region>_<j>").
inline Taco NestedTaco() {
  std::vector<Sample> regions;
  for (std::string region : {"europe", "asia"}) {
    std::vector<Sample> items;
    for (int j = 0; j < 2; ++j)
      items.push_back(*Sample::FromBytes("item_" + std::to_string(j), "data_" + region + "_" + std::to_string(j)));
    regions.push_back(*Sample::FromTortilla(region, *Tortilla::Make(std::move(items))));
  }
  return *Taco::Make(*Tortilla::Make(std::move(regions)), Collection());
}

inline std::string Written(const Taco& taco, const std::string& out) {
  auto r = Create(taco, out);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return out;
}

inline Table ParquetTable(const std::string& bytes) {
  auto engine = std::move(table::Engine::Open()).value();
  auto t = engine->ReadParquet(MemoryReader(bytes, "table.parquet"));
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : Table{};
}

inline std::string ParquetBytes(const Table& table) {
  auto engine = std::move(table::Engine::Open()).value();
  auto bytes = engine->ToParquet(table);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? *bytes : std::string();
}

inline Column& Col(Table& t, const std::string& name) {
  const int i = t.FindColumn(name);
  EXPECT_GE(i, 0) << name;
  return t.columns.at(static_cast<size_t>(i));
}

// Applies `edit` to the Parquet file at `path` and writes it back.
template <typename Edit>
void EditParquetFile(const std::string& path, Edit edit) {
  Table t = ParquetTable(testing::ReadFile(path));
  edit(t);
  testing::WriteFile(path, ParquetBytes(t));
}

// The bytes of member `name` of a ZIP.
inline std::string MemberBytes(const std::string& zip_path, const std::string& name) {
  auto reader = *OpenLocalFile(zip_path);
  auto entries = *zip::ReadCentralDirectory(*reader, true);
  for (const auto& e : entries) {
    if (e.name == name) return *reader->Read(e.data_offset, e.compressed_size);
  }
  ADD_FAILURE() << "no member " << name;
  return {};
}

// Rewrites the ZIP `src` as `dst`, members in their order, those in `replace` with new bytes
// (members after a resized one move: replace METADATA members or the last DATA ones), and
// a TACO_HEADER pointing at the levels.
inline void RebuildZip(const std::string& src, const std::string& dst,
                       const std::map<std::string, std::string>& replace) {
  auto reader = *OpenLocalFile(src);
  auto entries = zip::ReadCentralDirectory(*reader, true);
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  auto writer = zip::ZipWriter::Create(dst);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  zip::ZipWriter& w = **writer;
  ASSERT_TRUE(w.BeginTacoHeader().ok());
  std::map<std::string, zip::HeaderEntry> placed;
  for (const auto& e : *entries) {
    if (e.name == "TACO_HEADER") continue;
    auto it = replace.find(e.name);
    const std::string bytes = it != replace.end() ? it->second : *reader->Read(e.data_offset, e.compressed_size);
    auto info = w.AddBytes(e.name, bytes);
    ASSERT_TRUE(info.ok()) << info.status().ToString();
    placed[e.name] = zip::HeaderEntry{info->data_offset, info->size};
  }
  std::vector<zip::HeaderEntry> header;
  for (int i = 0; placed.count("METADATA/level" + std::to_string(i) + ".parquet"); ++i) {
    header.push_back(placed["METADATA/level" + std::to_string(i) + ".parquet"]);
  }
  header.push_back(placed["COLLECTION.json"]);
  ASSERT_TRUE(w.SetTacoHeader(header).ok());
  ASSERT_TRUE(w.Finish().ok());
}

// `taco <args>` must be refused: exit 2, "refused" on stderr, and `secret` nowhere in stdout.
inline void ExpectRefused(const std::string& args, const std::string& secret = "TOP-SECRET") {
  testing::CommandResult r = testing::RunTaco(args);
  EXPECT_EQ(r.exit_code, 2) << args << "\nstdout: " << r.out << "\nstderr: " << r.err;
  EXPECT_NE(r.err.find("refused"), std::string::npos) << args << "\nstderr: " << r.err;
  EXPECT_EQ(r.out.find(secret), std::string::npos) << args << "\nstdout: " << r.out;
  EXPECT_EQ(r.err.find(secret), std::string::npos) << args;
}

}  // namespace taco::sectest

#endif  // TACO_TESTS_SECURITY_SECURITY_TEST_UTIL_H_
