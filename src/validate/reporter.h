// Reporter: collects the violations of one validation run, at most `max_per_rule` listed per
// rule (the rest only counted), plus small text helpers shared by the checks.
#ifndef TACO_VALIDATE_REPORTER_H_
#define TACO_VALIDATE_REPORTER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "taco/validate.h"
#include "taco/value.h"

namespace taco::validate {

class Reporter {
 public:
  explicit Reporter(size_t max_per_rule) : max_per_rule_(max_per_rule) {}

  void Add(std::string_view rule, std::string where, std::string found, std::string expected);
  // `count` violations of `rule` found elsewhere and not listed (a part's omitted ones).
  void AddOmitted(std::string_view rule, uint64_t count);
  // Appends what `later` collected (a Reporter with the same max_per_rule that ran on the
  // next stretch of the same check) as if its Adds had been made here, in its order: the
  // same listed violations and counts as one Reporter doing both stretches in turn.
  void Merge(Reporter&& later);
  size_t max_per_rule() const { return max_per_rule_; }
  // Moves the listed violations and the omitted counts into `report`.
  void MoveInto(ValidationReport* report);
  uint64_t total() const { return total_; }
  // Violations of `rule` so far (listed or not).
  uint64_t count(std::string_view rule) const {
    auto it = counts_.find(rule);
    return it == counts_.end() ? 0 : it->second;
  }

 private:
  size_t max_per_rule_;
  uint64_t total_ = 0;
  std::map<std::string, uint64_t, std::less<>> counts_;
  std::vector<Violation> violations_;
  std::map<std::string, uint64_t, std::less<>> extra_omitted_;
};

// "'text'", shortened to 80 bytes.
std::string Quoted(std::string_view text);
// A cell for messages: null → "null", strings quoted, anything else Value::ToString()
// shortened to 80 bytes.
std::string CellText(const Value& v);
// Equality where NaN equals NaN (recursively through lists and structs).
bool SameValue(const Value& a, const Value& b);

}  // namespace taco::validate

#endif  // TACO_VALIDATE_REPORTER_H_
