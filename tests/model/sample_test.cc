// Sample: construction, id rules, extension keys, Extend/Pop.
#include <gtest/gtest.h>

#include "model_test_util.h"
#include "support/paths.h"
#include "taco/model.h"

namespace taco {
namespace {

using testing::F;

std::string IdError(const std::string& id) {
  Result<Sample> s = Sample::FromBytes(id, "x");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  return s.status().message();
}

TEST(SampleTest, FromBytes) {
  Result<Sample> s = Sample::FromBytes("s1", "hello");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->id(), "s1");
  EXPECT_EQ(s->type(), SampleType::kFile);
  EXPECT_EQ(s->size_bytes(), 5u);
  EXPECT_EQ(s->bytes(), "hello");
  EXPECT_TRUE(s->file_path().empty());
  EXPECT_EQ(s->children(), nullptr);
  EXPECT_FALSE(s->is_padding());
}

TEST(SampleTest, IdRules) {
  EXPECT_EQ(IdError("a:b"), "sample 'a:b': id 'a:b' contains ':' (ids may not contain '/', '\\' or ':')");
  EXPECT_EQ(IdError("a/b"), "sample 'a/b': id 'a/b' contains '/' (ids may not contain '/', '\\' or ':')");
  EXPECT_EQ(IdError("a\\b"), "sample 'a\\b': id 'a\\b' contains '\\' (ids may not contain '/', '\\' or ':')");
  EXPECT_EQ(IdError(""), "sample '': id is empty");
  EXPECT_EQ(IdError("__x"), "sample '__x': id '__x' starts with '__' (reserved for padding samples '__TACOPAD__<k>')");
  EXPECT_EQ(IdError("__TACOPAD__0"),
            "sample '__TACOPAD__0': id '__TACOPAD__0' starts with '__' (reserved for padding samples "
            "'__TACOPAD__<k>')");
  EXPECT_EQ(IdError(".."), "sample '..': id '..' is not allowed ('.' and '..' cannot be file names)");
  EXPECT_EQ(IdError("."), "sample '.': id '.' is not allowed ('.' and '..' cannot be file names)");
  const std::string nul("a\0b", 3);
  EXPECT_EQ(IdError(nul), "sample '" + nul + "': id '" + nul + "' contains a NUL byte");
  EXPECT_EQ(IdError("bad\xff"), "sample 'bad\xff': id 'bad\xff' is not valid UTF-8");
  EXPECT_EQ(IdError("\xc0\xaf"), "sample '\xc0\xaf': id '\xc0\xaf' is not valid UTF-8");  // overlong '/'
  EXPECT_TRUE(Sample::FromBytes("_a", "").ok());
  EXPECT_TRUE(Sample::FromBytes("a__b", "").ok());
  EXPECT_TRUE(Sample::FromBytes("é-1.tif", "").ok());
  EXPECT_TRUE(ValidateSampleId("B04").ok());
}

TEST(SampleTest, FromFile) {
  testing::TempDir dir;
  testing::WriteFile(dir / "a.tif", "12345678");
  Result<Sample> s = Sample::FromFile("a", dir / "a.tif");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->size_bytes(), 8u);
  EXPECT_EQ(s->file_path(), dir / "a.tif");
  EXPECT_TRUE(s->bytes().empty());

  Result<Sample> missing = Sample::FromFile("m", dir / "nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "sample 'm': cannot stat '" + (dir / "nope") + "': No such file or directory");

  Result<Sample> folder = Sample::FromFile("d", dir.path());
  ASSERT_FALSE(folder.ok());
  EXPECT_EQ(folder.status().message(), "sample 'd': '" + dir.path() + "' is not a regular file");

  Result<Sample> bad_id = Sample::FromFile("x:y", dir / "a.tif");
  ASSERT_FALSE(bad_id.ok());
  EXPECT_EQ(bad_id.status().message(), "sample 'x:y': id 'x:y' contains ':' (ids may not contain '/', '\\' or ':')");
}

TEST(SampleTest, FromTortillaAndPadding) {
  Sample pad = Sample::Padding(3);
  EXPECT_EQ(pad.id(), "__TACOPAD__3");
  EXPECT_TRUE(pad.is_padding());
  EXPECT_EQ(pad.size_bytes(), 0u);
  EXPECT_EQ(pad.type(), SampleType::kFile);

  Sample inner =
      testing::FolderSample("inner", {testing::FileSample("a", {}, "abc"), testing::FileSample("b", {}, "de")});
  Sample outer = testing::FolderSample("outer", {inner, testing::FileSample("c", {}, "f")});
  EXPECT_EQ(inner.size_bytes(), 5u);
  EXPECT_EQ(outer.size_bytes(), 6u);
  EXPECT_EQ(outer.type(), SampleType::kFolder);
  ASSERT_NE(outer.children(), nullptr);
  EXPECT_EQ(outer.children()->size(), 2u);
  EXPECT_EQ(outer.children()->depth(), 2);
  EXPECT_EQ(SampleTypeName(SampleType::kFolder), "FOLDER");
  EXPECT_EQ(SampleTypeName(SampleType::kFile), "FILE");

  Result<Sample> bad = Sample::FromTortilla("a/b", *inner.children());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "sample 'a/b': id 'a/b' contains '/' (ids may not contain '/', '\\' or ':')");
}

std::string KeyError(const std::string& key) {
  Sample s = testing::FileSample("s");
  Status st = s.Extend(F(key, DataType::Int64(), int64_t{1}));
  EXPECT_FALSE(st.ok());
  return st.message();
}

TEST(SampleTest, ExtensionKeys) {
  const std::string rule = " does not match ^[a-zA-Z0-9_]+(:\\w+)?$ (e.g. 'cloud_cover' or 'stac:time_start')";
  EXPECT_EQ(KeyError("bad key"), "sample 's': extension key 'bad key'" + rule);
  EXPECT_EQ(KeyError(""), "sample 's': extension key ''" + rule);
  EXPECT_EQ(KeyError("a:b:c"), "sample 's': extension key 'a:b:c'" + rule);
  EXPECT_EQ(KeyError("stac:"), "sample 's': extension key 'stac:'" + rule);
  EXPECT_EQ(KeyError(":x"), "sample 's': extension key ':x'" + rule);
  EXPECT_EQ(KeyError("é:x"), "sample 's': extension key 'é:x'" + rule);
  EXPECT_EQ(KeyError("a-b"), "sample 's': extension key 'a-b'" + rule);
  EXPECT_EQ(KeyError("x\n"), "sample 's': extension key 'x\n'" + rule);
  EXPECT_EQ(KeyError("id"), "sample 's': extension key 'id' is reserved (id, type and path are core fields)");
  EXPECT_EQ(KeyError("type"), "sample 's': extension key 'type' is reserved (id, type and path are core fields)");
  EXPECT_EQ(KeyError("path"), "sample 's': extension key 'path' is reserved (id, type and path are core fields)");
  EXPECT_EQ(KeyError("internal:offset"),
            "sample 's': extension key 'internal:offset' uses the reserved 'internal:' namespace");
  for (const char* ok : {"cloud_cover", "stac:time_start", "geotiff:stats", "a1:b_2", "X", "s2:bandé"}) {
    EXPECT_TRUE(ValidateExtensionKey(ok).ok()) << ok;
  }
}

TEST(SampleTest, ExtendAndPop) {
  Sample s = testing::FileSample("s");
  ASSERT_TRUE(s.Extend(F("cloud_cover", DataType::Double(), 0.5, "Cloud fraction")).ok());
  Status dup = s.Extend(F("cloud_cover", DataType::Double(), 0.1));
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.message(), "sample 's': extension key 'cloud_cover' is already present");

  Status wrong = s.Extend(F("count", DataType::Int64(), std::string("three")));
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.message(), "sample 's': extension 'count': value is string, type is int64");

  Status wrong_item = s.Extend(F("shape", DataType::List(DataType::Int64()), ValueList{int64_t{1}, 2.0}));
  EXPECT_EQ(wrong_item.message(), "sample 's': extension 'shape': value is double, type is int64");

  // All or nothing.
  Status partial = s.Extend({F("a", DataType::Int64(), int64_t{1}), F("b c", DataType::Int64(), int64_t{2})});
  EXPECT_FALSE(partial.ok());
  EXPECT_EQ(s.extensions().size(), 1u);
  Status twice = s.Extend({F("a", DataType::Int64(), int64_t{1}), F("a", DataType::Int64(), int64_t{2})});
  EXPECT_EQ(twice.message(), "sample 's': extension key 'a' is already present");

  ASSERT_TRUE(s.Extend({F("shape", DataType::List(DataType::Int64()), ValueList{int64_t{1}, int64_t{2}}),
                        F("when", DataType::TimestampUs(), TimestampUs{5}), F("empty", DataType::String(), Value())})
                  .ok());
  ASSERT_EQ(s.extensions().size(), 4u);
  EXPECT_EQ(s.schema()[1].first, "shape");
  EXPECT_EQ(s.extensions()[0].description, "Cloud fraction");

  ASSERT_TRUE(s.Pop("shape").ok());
  EXPECT_EQ(s.extensions().size(), 3u);
  EXPECT_EQ(s.extensions()[1].name, "when");
  Status missing = s.Pop("shape");
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.message(), "sample 's': no extension field 'shape'");
}

TEST(SampleTest, CopiesShareData) {
  Sample a = testing::FileSample("a", {}, std::string(1000, 'z'));
  Sample b = a;
  EXPECT_EQ(&a.bytes(), &b.bytes());
  ASSERT_TRUE(b.Extend(F("k", DataType::Int32(), int32_t{1})).ok());
  EXPECT_TRUE(a.extensions().empty());  // extensions are per copy
}

}  // namespace
}  // namespace taco
