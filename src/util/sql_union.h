// UnionAll(): SQL text that concatenates SELECTs with UNION ALL as a balanced tree,
// "(a UNION ALL b) UNION ALL (c UNION ALL d)", so that its nesting grows with log2 of the
// number of SELECTs. DuckDB parses a flat "a UNION ALL b UNION ALL c …" as a left-deep
// chain and refuses more than about 1,000 inputs ("Max expression depth limit of 1000
// exceeded"); a TACOCAT of thousands of parts needs more. Row order is NOT kept: DuckDB
// runs the branches in parallel and, unlike a flat chain, emits them interleaved, so a
// caller that needs an order says ORDER BY. `op` may be "UNION ALL BY NAME". Empty for no
// SELECTs.
#ifndef TACO_UTIL_SQL_UNION_H_
#define TACO_UTIL_SQL_UNION_H_

#include <string>
#include <string_view>
#include <vector>

namespace taco::util {

inline std::string UnionAllRange(const std::vector<std::string>& selects, size_t begin, size_t end,
                                 std::string_view op) {
  if (end - begin == 1) return selects[begin];
  const size_t mid = begin + (end - begin) / 2;
  std::string out = "(";
  out += UnionAllRange(selects, begin, mid, op);
  out += ") ";
  out += op;
  out += " (";
  out += UnionAllRange(selects, mid, end, op);
  out += ")";
  return out;
}

inline std::string UnionAll(const std::vector<std::string>& selects, std::string_view op = "UNION ALL") {
  if (selects.empty()) return "";
  return UnionAllRange(selects, 0, selects.size(), op);
}

}  // namespace taco::util

#endif  // TACO_UTIL_SQL_UNION_H_
