// Issue 29 item 1: a sample's own bytes must not make GDAL read outside the dataset or use
// the network. FILE samples whose bytes are a GDAL VRT naming (a) a GeoTIFF outside the
// dataset and (b) a /vsicurl/ URL on a loopback server of this test are refused by the
// sample decoder (the torch loader's engine) and `stats --exact`, reported by `validate`,
// and no HTTP request reaches the server; with the opt-in (OpenOptions /
// --allow-external-rasters) the local VRT reads, and the network stays off for a local
// dataset. ZIP and FOLDER.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "ext/raster_fixture.h"
#include "security_test_util.h"
#include "taco/dataset.h"
#include "taco/extensions.h"
#include "taco/sample_loader.h"
#include "taco/tree_builder.h"

namespace taco::sectest {
namespace {

using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;

constexpr double kOutsideValue = 99;  // every pixel of the outside GeoTIFF
constexpr double kInsideValue = 7;    // every pixel of the honest sample

// Accepts connections on a free loopback port and counts them (each is answered 404).
class CountingServer {
 public:
  CountingServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(::listen(fd_, 16), 0);
    socklen_t len = sizeof(addr);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~CountingServer() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  int port() const { return port_; }
  int connections() const { return connections_.load(); }

 private:
  void Serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) continue;
      ++connections_;
      char buf[4096];
      (void)::recv(c, buf, sizeof(buf), 0);
      const std::string reply = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      (void)::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
      ::close(c);
    }
  }
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

std::string Vrt(const std::string& source) {
  return "<VRTDataset rasterXSize=\"4\" rasterYSize=\"4\">\n"
         "  <VRTRasterBand dataType=\"Byte\" band=\"1\">\n"
         "    <SimpleSource>\n"
         "      <SourceFilename relativeToVRT=\"0\">" +
         source +
         "</SourceFilename>\n"
         "      <SourceBand>1</SourceBand>\n"
         "    </SimpleSource>\n"
         "  </VRTRasterBand>\n"
         "</VRTDataset>\n";
}

void WriteFlat(const std::string& path, double value) {
  testing::RasterSpec spec;
  spec.type = GDT_Byte;
  spec.geotransform = {10, 0.01, 0, 50, 0, -0.01};
  spec.bands = {std::vector<double>(16, value)};
  testing::WriteRaster(path, spec);
}

class ExternalRasters : public ::testing::Test {
 protected:
  void SetUp() override {
    outside_ = dir_ / "outside.tif";
    WriteFlat(outside_, kOutsideValue);
    WriteFlat(dir_ / "inside.tif", kInsideValue);
    auto stats = ext::GeotiffStats(outside_);
    ASSERT_TRUE(stats.ok()) << stats.status().ToString();
    url_ = "/vsicurl/http://127.0.0.1:" + std::to_string(server_.port()) + "/x.tif";
    // Rows: 0 honest GeoTIFF, 1 VRT of the outside file, 2 VRT of the URL; all with
    // geotiff:stats so that `stats --exact` selects them.
    std::vector<Sample> samples;
    const std::pair<const char*, std::string> rows[] = {
        {"honest", testing::ReadFile(dir_ / "inside.tif")}, {"local_vrt", Vrt(outside_)}, {"url_vrt", Vrt(url_)}};
    for (const auto& [id, bytes] : rows) {
      Sample s = *Sample::FromBytes(id, bytes);
      ASSERT_TRUE(s.Extend(*stats).ok());
      samples.push_back(std::move(s));
    }
    Taco taco = *Taco::Make(*Tortilla::Make(std::move(samples)), Collection());
    zip_ = Written(taco, dir_ / "ds.tacozip");
    folder_ = Written(taco, dir_ / "ds_folder");
  }

  // Decodes `row` of `path` as the torch loader does (SamplePlan + SampleDecoder).
  Result<DecodedSample> Decode(const std::string& path, int64_t row, bool allow) {
    OpenOptions options;
    options.allow_external_rasters = allow;
    TACO_ASSIGN_OR_RETURN(auto ds, Dataset::Open(path, options));
    TACO_ASSIGN_OR_RETURN(auto plan, SamplePlan::Build(*ds, {}));
    TACO_ASSIGN_OR_RETURN(auto decoder, SampleDecoder::Make(plan, {}));
    return decoder->Decode(row);
  }

  std::string Stats(const std::string& path, const std::string& id, const std::string& global = "") {
    return global + " stats " + ShellQuote(path) + " --band 0 --exact --json --sql " +
           ShellQuote("SELECT * FROM data WHERE id = '" + id + "'");
  }

  TempDir dir_;
  CountingServer server_;
  std::string outside_, url_, zip_, folder_;
};

TEST_F(ExternalRasters, DecoderRefusesReferencesByDefault) {
  for (const std::string& path : {zip_, folder_}) {
    SCOPED_TRACE(path);
    auto honest = Decode(path, 0, false);
    ASSERT_TRUE(honest.ok()) << honest.status().ToString();
    EXPECT_EQ(static_cast<double>(static_cast<uint8_t>(honest->files[0].data[0])), kInsideValue);

    auto local = Decode(path, 1, false);
    ASSERT_FALSE(local.ok()) << "the outside file was read: pixel "
                             << static_cast<int>(static_cast<uint8_t>(local->files[0].data[0]));
    const std::string& m = local.status().message();
    EXPECT_NE(m.find("local_vrt"), std::string::npos) << m;
    EXPECT_NE(m.find("VRT"), std::string::npos) << m;
    EXPECT_NE(m.find("--allow-external-rasters"), std::string::npos) << m;

    auto url = Decode(path, 2, false);
    EXPECT_FALSE(url.ok());
  }
  EXPECT_EQ(server_.connections(), 0);
}

TEST_F(ExternalRasters, OptInReadsTheLocalVrtButNoNetworkForALocalDataset) {
  for (const std::string& path : {zip_, folder_}) {
    SCOPED_TRACE(path);
    auto local = Decode(path, 1, true);
    ASSERT_TRUE(local.ok()) << local.status().ToString();
    EXPECT_EQ(static_cast<double>(static_cast<uint8_t>(local->files[0].data[0])), kOutsideValue);
    EXPECT_FALSE(Decode(path, 2, true).ok());
  }
  EXPECT_EQ(server_.connections(), 0);
}

TEST_F(ExternalRasters, StatsExactRefusesAndSendsNoRequest) {
  for (const std::string& path : {zip_, folder_}) {
    SCOPED_TRACE(path);
    testing::CommandResult honest = RunTaco(Stats(path, "honest"));
    EXPECT_EQ(honest.exit_code, 0) << honest.err;
    for (const char* id : {"local_vrt", "url_vrt"}) {
      testing::CommandResult r = RunTaco(Stats(path, id));
      EXPECT_EQ(r.exit_code, 2) << id << ": " << r.out << r.err;
      EXPECT_NE(r.err.find("VRT"), std::string::npos) << r.err;
      EXPECT_EQ(r.out.find("99"), std::string::npos) << r.out;
    }
    // The opt-in reads the outside file for the local VRT; the URL stays unreachable.
    testing::CommandResult allowed = RunTaco(Stats(path, "local_vrt", "--allow-external-rasters"));
    EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
    EXPECT_NE(allowed.out.find("99"), std::string::npos) << allowed.out;
    testing::CommandResult url = RunTaco(Stats(path, "url_vrt", "--allow-external-rasters"));
    EXPECT_EQ(url.exit_code, 2) << url.out << url.err;
  }
  EXPECT_EQ(server_.connections(), 0);
}

TEST_F(ExternalRasters, ValidateReportsTheReferencingSamples) {
  for (const std::string& path : {zip_, folder_}) {
    SCOPED_TRACE(path);
    testing::CommandResult v = RunTaco("validate " + ShellQuote(path));
    EXPECT_EQ(v.exit_code, 1) << v.out << v.err;
    const std::string all = v.out + v.err;
    EXPECT_NE(all.find("external-reference"), std::string::npos) << all;
    EXPECT_NE(all.find("local_vrt"), std::string::npos) << all;
    EXPECT_NE(all.find("url_vrt"), std::string::npos) << all;
    EXPECT_NE(all.find("VRT"), std::string::npos) << all;
    EXPECT_EQ(all.find("external-reference: honest"), std::string::npos) << all;
  }
  EXPECT_EQ(server_.connections(), 0);
}

// `create --ext` reads the user's inputs: a VRT input is read only with the option
// DirectoryOptions::allow_external_rasters (`taco --allow-external-rasters`, which reaches the
// extensions as an option, not through the process environment; issue 25).
TEST_F(ExternalRasters, CreateExtensionsReadReferencesOnlyWithTheOption) {
  std::filesystem::create_directories(dir_ / "src");
  testing::WriteFile(dir_ / "src/ref.vrt", Vrt(outside_));
  testing::WriteFile(dir_ / "src/inside.tif", testing::ReadFile(dir_ / "inside.tif"));
  DirectoryOptions options;
  options.collection = Collection();
  options.extensions = *ext::ParseExtensionSpecs({"stats"});
  auto stats_of = [](const Taco& taco, const std::string& id) -> Value {
    for (const Sample& s : taco.root().samples()) {
      if (s.id() != id) continue;
      for (const Field& f : s.extensions()) {
        if (f.name == "geotiff:stats") return f.value;
      }
    }
    return Value();
  };
  auto refused = TacoFromDirectory(dir_ / "src", options);
  if (refused.ok()) {  // the VRT is not opened: its stats stay null
    EXPECT_TRUE(stats_of(*refused, "ref.vrt").is_null());
    EXPECT_FALSE(stats_of(*refused, "inside.tif").is_null());
  } else {
    EXPECT_NE(refused.status().message().find("ref.vrt"), std::string::npos) << refused.status().ToString();
  }
  options.allow_external_rasters = true;
  auto allowed = TacoFromDirectory(dir_ / "src", options);
  ASSERT_TRUE(allowed.ok()) << allowed.status().ToString();
  const Value v = stats_of(*allowed, "ref.vrt");
  ASSERT_FALSE(v.is_null());
  EXPECT_EQ(v.get<ValueList>()[0].get<ValueList>()[0], Value(static_cast<float>(kOutsideValue)));  // min: outside
  EXPECT_EQ(server_.connections(), 0);
}

}  // namespace
}  // namespace taco::sectest
