// The independent legacy writer and checker of the tests (see legacy_synth.h).
#include "legacy/legacy_synth.h"

#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <stdexcept>

#include "table/engine.h"

namespace taco::testing {
namespace {

table::Engine& Duck() {
  static std::unique_ptr<table::Engine> engine = [] {
    auto e = table::Engine::Open();
    if (!e.ok()) throw std::runtime_error(e.status().ToString());
    return std::move(*e);
  }();
  return *engine;
}

void PutU64(std::string& b, size_t at, uint64_t v) {
  for (size_t i = 0; i < 8; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string ListOf(const std::vector<std::string>& literals, const std::string& type) {
  std::string out = "unnest([";
  for (size_t i = 0; i < literals.size(); ++i) out += (i ? ", " : "") + literals[i];
  return out + "]::" + type + "[])";
}

}  // namespace

uint64_t U64At(const std::string& b, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b.at(at + static_cast<size_t>(i)));
  return v;
}

std::string SynthFooterBytes(const std::vector<SynthItem>& items, const SynthFooter& footer) {
  std::vector<std::string> ids, formats, offsets, lengths, index;
  uint64_t at = 200;
  for (size_t i = 0; i < items.size(); ++i) {
    ids.push_back(Quote(items[i].id));
    formats.push_back(Quote(items[i].format));
    offsets.push_back(
        std::to_string(i < footer.offsets_override.size() ? footer.offsets_override[i] : static_cast<int64_t>(at)));
    lengths.push_back(std::to_string(items[i].data.size()));
    index.push_back(std::to_string(i * 10 + 3));
    at += items[i].data.size();
  }
  std::string sql = "SELECT " + ListOf(ids, "VARCHAR") + " AS \"tortilla:id\"";
  if (footer.with_file_format) sql += ", " + ListOf(formats, "VARCHAR") + " AS \"tortilla:file_format\"";
  sql += ", " + ListOf(offsets, "BIGINT") + " AS \"tortilla:offset\", " + ListOf(lengths, "BIGINT") +
         " AS \"tortilla:length\"";
  for (const SynthColumn& c : footer.extra) {
    sql += ", " + ListOf(c.values, c.sql_type) + " AS \"" + c.name + "\"";
  }
  if (footer.pandas_index) sql += ", " + ListOf(index, "BIGINT") + " AS \"__index_level_0__\"";
  table::ParquetWriteOptions opts;
  opts.kv_metadata = footer.kv;
  auto bytes = Duck().QueryToParquet(sql, opts);
  if (!bytes.ok()) throw std::runtime_error(bytes.status().ToString() + " in " + sql);
  return *bytes;
}

std::string SynthTortilla(const std::vector<SynthItem>& items, const SynthFooter& footer, uint64_t dp) {
  std::string pile;
  for (const auto& item : items) pile += item.data;
  const std::string parquet = SynthFooterBytes(items, footer);
  std::string header(200, '\0');
  header[0] = '#';
  header[1] = 'y';
  PutU64(header, 2, 200 + pile.size());
  PutU64(header, 10, parquet.size());
  PutU64(header, 18, dp);
  return header + pile + parquet;
}

std::string SynthToTaco(std::string t, const std::string& json) {
  t[0] = 'W';
  t[1] = 'X';
  PutU64(t, 26, t.size());
  PutU64(t, 34, json.size());
  return t + json;
}

std::string SynthP2(const std::vector<SynthItem>& items, const std::string& driver, const SynthFooter& footer,
                    const std::string& json) {
  std::string t = SynthTortilla(items, footer, 1);
  std::string df = driver;
  df.resize(24, ' ');
  std::memcpy(&t[18], df.data(), 24);
  PutU64(t, 42, 1);
  if (!json.empty()) {
    PutU64(t, 50, t.size());
    PutU64(t, 58, json.size());
    t += json;
  }
  return t;
}

std::string SynthP0(const std::vector<SynthItem>& items, const std::string& driver) {
  std::string pile, json = "{";
  uint64_t at = 50;
  for (size_t i = 0; i < items.size(); ++i) {
    json += (i ? ", " : "") + std::string("\"") + items[i].id + "\": [" + std::to_string(at) + ", " +
            std::to_string(items[i].data.size()) + "]";
    pile += items[i].data;
    at += items[i].data.size();
  }
  json += "}";
  std::string header(50, '\0');
  header[0] = '#';
  header[1] = 'y';
  PutU64(header, 2, 50 + pile.size());
  PutU64(header, 10, json.size());
  std::string df = driver;
  df.resize(32, ' ');
  std::memcpy(&header[18], df.data(), 32);
  return header + pile + json;
}

std::string SynthGeoTiff(int value, double x0, double y0) {
  GDALAllRegister();
  static int counter = 0;
  const std::string path = "/vsimem/legacy_synth_" + std::to_string(counter++) + ".tif";
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("GTiff");
  GDALDataset* ds = driver->Create(path.c_str(), 8, 8, 1, GDT_Byte, nullptr);
  double gt[6] = {x0, 10, 0, y0, 0, -10};
  ds->SetGeoTransform(gt);
  OGRSpatialReference srs;
  srs.importFromEPSG(32630);
  ds->SetSpatialRef(&srs);
  std::vector<uint8_t> px(64, static_cast<uint8_t>(value));
  if (ds->GetRasterBand(1)->RasterIO(GF_Write, 0, 0, 8, 8, px.data(), 8, 8, GDT_Byte, 0, 0, nullptr) != CE_None) {
    throw std::runtime_error("RasterIO failed");
  }
  GDALClose(ds);
  vsi_l_offset size = 0;
  GByte* data = VSIGetMemFileBuffer(path.c_str(), &size, TRUE);
  std::string bytes(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
  CPLFree(data);
  return bytes;
}

std::vector<std::string> CheckLegacyStructure(const std::string& b, bool top_level) {
  std::vector<std::string> problems;
  auto fail = [&](const std::string& s) { problems.push_back(s); };
  if (b.size() < 200) return {"size " + std::to_string(b.size()) + " < 200"};
  const std::string magic = b.substr(0, 2);
  if (magic != "#y" && magic != "WX") return {"magic " + magic};
  const uint64_t fo = U64At(b, 2), fl = U64At(b, 10), dp = U64At(b, 18);
  if (dp < 1) fail("DP is 0");
  if (fo < 200 || fo + fl > b.size()) return {"footer outside the file"};
  const std::string footer = b.substr(fo, fl);
  if (footer.size() < 8 || footer.substr(0, 4) != "PAR1" || footer.substr(footer.size() - 4) != "PAR1") {
    fail("footer is not PAR1...PAR1");
    return problems;
  }
  if (magic == "#y") {
    if (top_level && fo + fl != b.size()) fail("Tortilla does not end at FO+FL");
    if (!top_level && fo + fl != b.size()) fail("nested Tortilla does not end at FO+FL");
    for (size_t i = 26; i < 200; ++i) {
      if (b[i] != 0) {
        fail("free byte " + std::to_string(i) + " is not zero");
        break;
      }
    }
  } else {
    const uint64_t co = U64At(b, 26), cl = U64At(b, 34);
    if (co != fo + fl) fail("CO != FO+FL");
    if (co + cl != b.size()) fail("CO+CL != size");
    for (size_t i = 42; i < 200; ++i) {
      if (b[i] != 0) {
        fail("free byte " + std::to_string(i) + " is not zero");
        break;
      }
    }
    if (co + cl <= b.size()) {
      const std::string json = b.substr(co, cl);
      if (json.empty() || json.front() != '{' || json.find("\"id\"") == std::string::npos) {
        fail("COLLECTION is not a JSON object with an id");
      }
    }
  }
  // The footer rows, read with DuckDB from a scratch file.
  static int counter = 0;
  const std::string path =
      "/tmp/legacy_check_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".parquet";
  {
    FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(footer.data(), 1, footer.size(), f);
    std::fclose(f);
  }
  auto rows = Duck().Query(
      "SELECT \"tortilla:id\", \"tortilla:file_format\", \"tortilla:offset\", "
      "\"tortilla:length\" FROM read_parquet(" +
      Quote(path) + ") ORDER BY \"tortilla:offset\"");
  std::remove(path.c_str());
  if (!rows.ok()) {
    fail("footer: " + rows.status().ToString());
    return problems;
  }
  std::set<std::string> ids;
  uint64_t expect = 200;
  for (size_t i = 0; i < rows->num_rows(); ++i) {
    const std::string id = rows->columns[0].values[i].get<std::string>();
    const std::string format = rows->columns[1].values[i].get<std::string>();
    const uint64_t off = static_cast<uint64_t>(rows->columns[2].values[i].get<int64_t>());
    const uint64_t len = static_cast<uint64_t>(rows->columns[3].values[i].get<int64_t>());
    if (!ids.insert(id).second) fail("duplicate id " + id);
    if (off != expect) fail("item " + id + " at " + std::to_string(off) + ", expected " + std::to_string(expect));
    expect = off + len;
    if (format == "TORTILLA") {
      if (off + len > b.size()) {
        fail("nested " + id + " outside the file");
        continue;
      }
      for (const std::string& p : CheckLegacyStructure(b.substr(off, len), false)) fail(id + ": " + p);
    }
  }
  if (expect != fo) fail("pile ends at " + std::to_string(expect) + ", FO is " + std::to_string(fo));
  return problems;
}

}  // namespace taco::testing
