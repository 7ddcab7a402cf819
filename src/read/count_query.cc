// `SELECT count(*) FROM data` from the engine-free row count (taco/count_query.h).
#include "taco/count_query.h"

#include <cctype>
#include <string>

namespace taco {
namespace {

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// `query` lower-cased, without trailing whitespace and ';', with every run of whitespace
// dropped next to '(', '*' and ')' and made one space elsewhere.
std::string Normalised(std::string_view query) {
  while (!query.empty() && (IsSpace(query.back()) || query.back() == ';')) query.remove_suffix(1);
  std::string out;
  bool space = false;
  for (char c : query) {
    if (IsSpace(c)) {
      space = true;
      continue;
    }
    const bool punct = c == '(' || c == '*' || c == ')';
    if (space && !out.empty() && !punct && out.back() != '(' && out.back() != '*' && out.back() != ')') out += ' ';
    space = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

}  // namespace

bool IsCountOfData(std::string_view query) {
  // After normalising, "select count(*)from data" is the spacing ')' leaves before FROM.
  return Normalised(query) == "select count(*)from data";
}

Result<Table> CountOfData(const Dataset& ds) {
  TACO_ASSIGN_OR_RETURN(int64_t rows, ds.RowCount());
  Table out;
  out.columns.push_back(Column{"count_star()", DataType::Int64(), {Value(rows)}});
  return out;
}

}  // namespace taco
