// A safe Markdown renderer for dataset descriptions (a CommonMark subset): paragraphs, ATX
// headings, bullet and ordered lists, fenced and indented code blocks, block quotes, horizontal
// rules, inline code, **strong**, *emphasis*, [links](url) and <autolinks>.
//
// Contract: raw HTML is never passed through (every '<', '>', '&', '"' is escaped), so the
// output is safe to embed in a page; link targets are kept only for http(s), mailto and relative
// URLs (a "javascript:" or other scheme becomes plain text). Headings are shifted down by
// `heading_offset` levels (a description's "#" becomes <h3> with offset 2).
#ifndef TACO_SRC_PUBLISH_MARKDOWN_H_
#define TACO_SRC_PUBLISH_MARKDOWN_H_

#include <string>
#include <string_view>

namespace taco::publish {

std::string MarkdownToHtml(std::string_view markdown, int heading_offset = 2);

}  // namespace taco::publish

#endif  // TACO_SRC_PUBLISH_MARKDOWN_H_
