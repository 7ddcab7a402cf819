#include "publish/markdown.h"

#include <cctype>
#include <vector>

#include "publish/text.h"

namespace taco::publish {
namespace {

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(b, e - b));
}

bool SafeUrl(const std::string& url) {
  std::string lower;
  for (char c : url) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.rfind("http://", 0) == 0 || lower.rfind("https://", 0) == 0 || lower.rfind("mailto:", 0) == 0) return true;
  // Relative: no scheme before the first '/', '?' or '#'.
  size_t colon = lower.find(':');
  size_t stop = lower.find_first_of("/?#");
  return colon == std::string::npos || (stop != std::string::npos && stop < colon);
}

// Inline markup of one block's text (already joined lines).
std::string Inline(const std::string& s) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\\' && i + 1 < s.size() && std::ispunct(static_cast<unsigned char>(s[i + 1]))) {
      out += XmlEscape(std::string(1, s[i + 1]));
      i += 2;
      continue;
    }
    if (c == '`') {
      size_t ticks = 0;
      while (i + ticks < s.size() && s[i + ticks] == '`') ++ticks;
      std::string fence(ticks, '`');
      size_t end = s.find(fence, i + ticks);
      if (end != std::string::npos) {
        out += "<code>" + XmlEscape(Trim(s.substr(i + ticks, end - i - ticks))) + "</code>";
        i = end + ticks;
        continue;
      }
    }
    if ((c == '*' || c == '_') && i + 1 < s.size() && s[i + 1] == c) {
      std::string mark(2, c);
      size_t end = s.find(mark, i + 2);
      if (end != std::string::npos && end > i + 2) {
        out += "<strong>" + Inline(s.substr(i + 2, end - i - 2)) + "</strong>";
        i = end + 2;
        continue;
      }
    }
    if ((c == '*' || c == '_') && i + 1 < s.size() && s[i + 1] != ' ') {
      size_t end = s.find(c, i + 1);
      if (end != std::string::npos && end > i + 1 && s[end - 1] != ' ') {
        out += "<em>" + Inline(s.substr(i + 1, end - i - 1)) + "</em>";
        i = end + 1;
        continue;
      }
    }
    if (c == '[') {
      size_t close = s.find(']', i + 1);
      if (close != std::string::npos && close + 1 < s.size() && s[close + 1] == '(') {
        size_t paren = s.find(')', close + 2);
        if (paren != std::string::npos) {
          std::string text = s.substr(i + 1, close - i - 1);
          std::string url = Trim(s.substr(close + 2, paren - close - 2));
          if (SafeUrl(url)) {
            out += "<a href=\"" + XmlEscape(url) + "\" rel=\"nofollow noopener\">" + Inline(text) + "</a>";
          } else {
            out += Inline(text) + " (" + XmlEscape(url) + ")";
          }
          i = paren + 1;
          continue;
        }
      }
    }
    if (c == '<') {
      size_t close = s.find('>', i + 1);
      if (close != std::string::npos) {
        std::string inner = s.substr(i + 1, close - i - 1);
        if ((inner.rfind("http://", 0) == 0 || inner.rfind("https://", 0) == 0) &&
            inner.find_first_of(" <\"") == std::string::npos) {
          out += "<a href=\"" + XmlEscape(inner) + "\" rel=\"nofollow noopener\">" + XmlEscape(inner) + "</a>";
          i = close + 1;
          continue;
        }
      }
    }
    out += XmlEscape(std::string(1, c));
    ++i;
  }
  return out;
}

struct ListItemStart {
  bool ok = false;
  bool ordered = false;
  size_t content = 0;  // column where the item text starts
};

ListItemStart ListStart(const std::string& line) {
  size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  if (i < line.size() && (line[i] == '-' || line[i] == '*' || line[i] == '+') && i + 1 < line.size() &&
      line[i + 1] == ' ') {
    return {true, false, i + 2};
  }
  size_t d = i;
  while (d < line.size() && std::isdigit(static_cast<unsigned char>(line[d]))) ++d;
  if (d > i && d - i <= 9 && d + 1 < line.size() && (line[d] == '.' || line[d] == ')') && line[d + 1] == ' ') {
    return {true, true, d + 2};
  }
  return {};
}

bool IsRule(const std::string& t) {
  if (t.size() < 3) return false;
  char c = t[0];
  if (c != '-' && c != '*' && c != '_') return false;
  size_t n = 0;
  for (char x : t) {
    if (x == c) {
      ++n;
    } else if (x != ' ') {
      return false;
    }
  }
  return n >= 3;
}

class Renderer {
 public:
  Renderer(std::vector<std::string> lines, int offset) : lines_(std::move(lines)), offset_(offset) {}

  std::string Run() {
    std::string out;
    size_t i = 0;
    while (i < lines_.size()) i = Block(i, out);
    return out;
  }

 private:
  size_t Block(size_t i, std::string& out) {
    const std::string& line = lines_[i];
    std::string t = Trim(line);
    if (t.empty()) return i + 1;
    if (t.rfind("```", 0) == 0 || t.rfind("~~~", 0) == 0) {
      std::string fence = t.substr(0, 3);
      std::string code;
      size_t j = i + 1;
      while (j < lines_.size() && Trim(lines_[j]).rfind(fence, 0) != 0) code += lines_[j++] + "\n";
      out += "<pre><code>" + XmlEscape(code) + "</code></pre>\n";
      return j < lines_.size() ? j + 1 : j;
    }
    if (line.rfind("    ", 0) == 0 || line.rfind("\t", 0) == 0) {
      std::string code;
      size_t j = i;
      while (j < lines_.size() &&
             (lines_[j].rfind("    ", 0) == 0 || lines_[j].rfind("\t", 0) == 0 || Trim(lines_[j]).empty())) {
        const std::string& l = lines_[j];
        code += (l.rfind("\t", 0) == 0 ? l.substr(1) : l.size() >= 4 ? l.substr(4) : "") + "\n";
        ++j;
      }
      while (code.size() >= 2 && code.compare(code.size() - 2, 2, "\n\n") == 0) code.pop_back();
      out += "<pre><code>" + XmlEscape(code) + "</code></pre>\n";
      return j;
    }
    if (t[0] == '#') {
      size_t level = 0;
      while (level < t.size() && t[level] == '#') ++level;
      if (level <= 6 && (level == t.size() || t[level] == ' ')) {
        int h = std::min(6, static_cast<int>(level) + offset_);
        std::string text = Trim(t.substr(level));
        while (!text.empty() && text.back() == '#') text.pop_back();
        out += "<h" + std::to_string(h) + ">" + Inline(Trim(text)) + "</h" + std::to_string(h) + ">\n";
        return i + 1;
      }
    }
    if (IsRule(t)) {
      out += "<hr>\n";
      return i + 1;
    }
    if (t[0] == '>') {
      std::vector<std::string> inner;
      size_t j = i;
      while (j < lines_.size() && !Trim(lines_[j]).empty() && Trim(lines_[j])[0] == '>') {
        std::string l = Trim(lines_[j]).substr(1);
        if (!l.empty() && l[0] == ' ') l = l.substr(1);
        inner.push_back(l);
        ++j;
      }
      out += "<blockquote>\n" + Renderer(inner, offset_).Run() + "</blockquote>\n";
      return j;
    }
    ListItemStart start = ListStart(line);
    if (start.ok) return List(i, start.ordered, out);
    // Paragraph: until a blank line or another block starts.
    std::string text = t;
    size_t j = i + 1;
    while (j < lines_.size()) {
      std::string n = Trim(lines_[j]);
      if (n.empty() || n[0] == '#' || n.rfind("```", 0) == 0 || n[0] == '>' || ListStart(lines_[j]).ok || IsRule(n))
        break;
      text += "\n" + n;
      ++j;
    }
    std::string html = Inline(text);
    std::string with_breaks;
    for (char c : html) with_breaks += c == '\n' ? std::string("\n") : std::string(1, c);
    out += "<p>" + with_breaks + "</p>\n";
    return j;
  }

  size_t List(size_t i, bool ordered, std::string& out) {
    out += ordered ? "<ol>\n" : "<ul>\n";
    size_t j = i;
    while (j < lines_.size()) {
      ListItemStart s = ListStart(lines_[j]);
      if (!s.ok || s.ordered != ordered) break;
      std::vector<std::string> item = {lines_[j].substr(s.content)};
      size_t k = j + 1;
      while (k < lines_.size()) {
        const std::string& l = lines_[k];
        std::string t = Trim(l);
        if (t.empty()) {
          // A blank line ends the item unless the next line is indented under it.
          if (k + 1 < lines_.size() && lines_[k + 1].rfind(std::string(s.content, ' '), 0) == 0 &&
              !Trim(lines_[k + 1]).empty()) {
            item.push_back("");
            ++k;
            continue;
          }
          break;
        }
        if (l.rfind(std::string(s.content, ' '), 0) == 0) {
          item.push_back(l.substr(s.content));
        } else if (ListStart(l).ok) {
          break;
        } else {
          item.push_back(t);  // lazy continuation
        }
        ++k;
      }
      std::string inner = Renderer(item, offset_).Run();
      // A tight single paragraph renders without <p>.
      if (inner.rfind("<p>", 0) == 0 && inner.find("<p>", 3) == std::string::npos && inner.size() >= 5 &&
          inner.compare(inner.size() - 5, 5, "</p>\n") == 0) {
        inner = inner.substr(3, inner.size() - 8);
      }
      out += "<li>" + inner + "</li>\n";
      j = k;
      while (j < lines_.size() && Trim(lines_[j]).empty() && j + 1 < lines_.size() && ListStart(lines_[j + 1]).ok &&
             ListStart(lines_[j + 1]).ordered == ordered) {
        ++j;
      }
    }
    out += ordered ? "</ol>\n" : "</ul>\n";
    return j;
  }

  std::vector<std::string> lines_;
  int offset_;
};

}  // namespace

std::string MarkdownToHtml(std::string_view markdown, int heading_offset) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : markdown) {
    if (c == '\n') {
      if (!cur.empty() && cur.back() == '\r') cur.pop_back();
      lines.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  return Renderer(std::move(lines), heading_offset).Run();
}

}  // namespace taco::publish
