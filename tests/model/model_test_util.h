// Helpers shared by the tests of src/model: building samples, tortillas, collections and
// WKB points without ceremony.
#ifndef TACO_TESTS_MODEL_MODEL_TEST_UTIL_H_
#define TACO_TESTS_MODEL_MODEL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "taco/model.h"

namespace taco::testing {

// prefix + i (written this way to dodge GCC 12's false -Wrestrict on "lit" + std::string).
inline std::string Name(const char* prefix, int i) {
  std::string s = prefix;
  s += std::to_string(i);
  return s;
}

inline Field F(std::string name, DataType type, Value value, std::string description = "") {
  return Field{std::move(name), std::move(type), std::move(value), std::move(description)};
}

// A FILE from bytes with the given extension fields; aborts the test on error.
inline Sample FileSample(const std::string& id, std::vector<Field> fields = {}, const std::string& bytes = "x") {
  Result<Sample> s = Sample::FromBytes(id, bytes);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  Status st = s->Extend(std::move(fields));
  EXPECT_TRUE(st.ok()) << st.ToString();
  return *s;
}

inline Tortilla MakeTortilla(std::vector<Sample> samples, TortillaOptions options = {}) {
  Result<Tortilla> t = Tortilla::Make(std::move(samples), options);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return *t;
}

inline Sample FolderSample(const std::string& id, std::vector<Sample> children, std::vector<Field> fields = {},
                           TortillaOptions options = {}) {
  Result<Sample> s = Sample::FromTortilla(id, MakeTortilla(std::move(children), options));
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  Status st = s->Extend(std::move(fields));
  EXPECT_TRUE(st.ok()) << st.ToString();
  return *s;
}

inline nlohmann::ordered_json BaseCollection() {
  return nlohmann::ordered_json::parse(R"({
    "id": "test_dataset", "dataset_version": "1.0.0", "description": "A test dataset",
    "licenses": ["CC-BY-4.0"], "providers": [{"name": "Test", "organization": null, "email": null, "role": null}],
    "tasks": ["classification"]})");
}

inline Taco MakeTaco(Tortilla root, nlohmann::ordered_json collection = BaseCollection()) {
  Result<Taco> t = Taco::Make(std::move(root), std::move(collection));
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return *t;
}

// Little-endian (or big-endian) ISO WKB point.
inline Binary WkbPointBytes(double x, double y, bool little = true) {
  std::string out;
  out.push_back(little ? 1 : 0);
  auto put32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(little ? (v >> (8 * i)) : (v >> (8 * (3 - i)))));
  };
  auto put64 = [&](double d) {
    uint64_t v;
    std::memcpy(&v, &d, 8);
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(little ? (v >> (8 * i)) : (v >> (8 * (7 - i)))));
  };
  put32(1);
  put64(x);
  put64(y);
  return Binary{out};
}

}  // namespace taco::testing

#endif  // TACO_TESTS_MODEL_MODEL_TEST_UTIL_H_
