#include "validate/reporter.h"

#include <cmath>
#include <utility>

namespace taco::validate {
namespace {

constexpr size_t kMaxText = 80;

std::string Shorten(std::string text) {
  if (text.size() <= kMaxText) return text;
  size_t cut = kMaxText;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
  return text.substr(0, cut) + "...";
}

template <typename T>
bool SameFloat(T a, T b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

}  // namespace

void Reporter::Add(std::string_view rule, std::string where, std::string found, std::string expected) {
  ++total_;
  auto it = counts_.find(rule);
  if (it == counts_.end()) it = counts_.emplace(std::string(rule), 0).first;
  if (++it->second > max_per_rule_) return;
  violations_.push_back(Violation{std::string(rule), std::move(where), std::move(found), std::move(expected)});
}

void Reporter::AddOmitted(std::string_view rule, uint64_t count) {
  if (count == 0) return;
  total_ += count;
  auto it = extra_omitted_.find(rule);
  if (it == extra_omitted_.end()) it = extra_omitted_.emplace(std::string(rule), 0).first;
  it->second += count;
}

void Reporter::Merge(Reporter&& later) {
  std::map<std::string, uint64_t, std::less<>> listed;
  for (Violation& v : later.violations_) {
    ++listed[v.rule];
    Add(v.rule, std::move(v.where), std::move(v.found), std::move(v.expected));
  }
  // The ones `later` only counted come after at least max_per_rule listed ones: counted here too.
  for (const auto& [rule, count] : later.counts_) {
    auto it = listed.find(rule);
    const uint64_t unlisted = count - (it == listed.end() ? 0 : it->second);
    if (unlisted == 0) continue;
    total_ += unlisted;
    counts_[rule] += unlisted;
  }
  for (const auto& [rule, count] : later.extra_omitted_) AddOmitted(rule, count);
  later.violations_.clear();
}

void Reporter::MoveInto(ValidationReport* report) {
  report->violations = std::move(violations_);
  violations_.clear();
  for (const auto& [rule, count] : counts_) {
    if (count > max_per_rule_) report->omitted[rule] = count - max_per_rule_;
  }
  for (const auto& [rule, count] : extra_omitted_) report->omitted[rule] += count;
}

std::string Quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 5);
  out.push_back('\'');
  out.append(Shorten(std::string(text)));
  out.push_back('\'');
  return out;
}

std::string CellText(const Value& v) {
  if (v.is_null()) return "null";
  if (v.is<std::string>()) return Quoted(v.get<std::string>());
  return Shorten(v.ToString());
}

bool SameValue(const Value& a, const Value& b) {
  if (a.is<float>() && b.is<float>()) return SameFloat(a.get<float>(), b.get<float>());
  if (a.is<double>() && b.is<double>()) return SameFloat(a.get<double>(), b.get<double>());
  if (a.is<ValueList>() && b.is<ValueList>()) {
    const ValueList& x = a.get<ValueList>();
    const ValueList& y = b.get<ValueList>();
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (!SameValue(x[i], y[i])) return false;
    }
    return true;
  }
  if (a.is<ValueStruct>() && b.is<ValueStruct>()) {
    const ValueStruct& x = a.get<ValueStruct>();
    const ValueStruct& y = b.get<ValueStruct>();
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (x[i].first != y[i].first || !SameValue(x[i].second, y[i].second)) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace taco::validate
