#include "core/triton/wrapper_module.h"

#include <algorithm>

#include "core/base/text.h"
#include "core/triton/python_literal.h"

namespace occx::triton {
namespace {

std::vector<std::string> textsOf(const PyValue& tuple) {
  std::vector<std::string> out;
  if (tuple.kind != PyValue::Kind::kTuple && tuple.kind != PyValue::Kind::kList) {
    out.push_back(tuple.repr());
    return out;
  }
  for (const auto& v : tuple.items) out.push_back(v.repr());
  return out;
}

struct Line {
  std::string_view text;
  std::size_t offset = 0;  // of the line in the module
  int number = 0;
};

std::vector<Line> linesOf(std::string_view text) {
  std::vector<Line> lines;
  std::size_t pos = 0;
  int number = 1;
  while (pos <= text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    lines.push_back({text.substr(pos, eol - pos), pos, number++});
    if (eol == text.size()) break;
    pos = eol + 1;
  }
  return lines;
}

class WrapperReader {
 public:
  WrapperReader(std::string_view text, WrapperModule& out) : text_(text), out_(out) {}

  // Every `async_compile.triton('name', '''source''')` call. Linear in the text: each call is
  // parsed within a slice that ends at the next marker (a call cut short there fails on its slice
  // alone, not by reading to the end of the file), and its "# kernel path:" comment is looked for
  // only between the previous call and this one.
  void embeddedKernels() {
    const std::string_view marker = "async_compile.triton(";
    std::size_t pos = text_.find(marker);
    std::size_t gap_start = 0;  // where the text since the previous call (or marker) starts
    while (pos != std::string_view::npos) {
      const std::size_t next = text_.find(marker, pos + marker.size());
      const std::size_t window_end = next == std::string_view::npos ? text_.size() : next;
      const std::string_view gap = text_.substr(gap_start, pos - gap_start);
      const std::size_t comment = gap.rfind("# kernel path:");
      std::string module_path;
      if (comment != std::string_view::npos) {
        const std::size_t eol = gap.find('\n', comment);
        module_path = trimmed(gap.substr(comment + 14, eol == std::string_view::npos ? eol : eol - comment - 14));
      }
      const int line = lineOf(pos);
      auto call = parsePythonExpression(text_.substr(pos, window_end - pos), 0, TextPosition{line, columnOf(pos)});
      if (!call || call->value.kind != PyValue::Kind::kCall || call->value.items.size() < 2 ||
          !call->value.items[0].isString() || !call->value.items[1].isString()) {
        out_.warnings.push_back("line " + std::to_string(line) +
                                ": an async_compile.triton(...) call is not 'name', '''source''' (" +
                                (call ? std::string("other arguments") : call.error()) + ")");
        gap_start = pos + marker.size();
        pos = next;
        continue;
      }
      out_.kernels.push_back({call->value.items[0].text, module_path, call->value.items[1].text, line});
      gap_start = pos + call->end;
      pos = next;
    }
  }

  void statements() {
    for (const Line& l : linesOf(text_)) {
      std::size_t p = 0;
      while (p < l.text.size()) {
        std::size_t semicolon = l.text.find(';', p);
        if (semicolon == std::string_view::npos) semicolon = l.text.size();
        statement(l.text.substr(p, semicolon - p), l.number);
        p = semicolon + 1;
      }
    }
  }

 private:
  // Line of `offset` (1-based), counting on from the last offset asked: callers ask in increasing order.
  int lineOf(std::size_t offset) {
    if (offset < counted_to_) {
      counted_to_ = 0;
      counted_lines_ = 1;
      last_newline_ = std::string_view::npos;
    }
    for (std::size_t i = counted_to_; i < offset; ++i) {
      if (text_[i] == '\n') {
        ++counted_lines_;
        last_newline_ = i;
      }
    }
    counted_to_ = offset;
    return counted_lines_;
  }
  std::size_t counted_to_ = 0;
  int counted_lines_ = 1;
  std::size_t last_newline_ = std::string_view::npos;  // of the text before counted_to_

  // Column of `offset` (1-based), after lineOf(offset): counts back to the line's start only once
  // per line, so a long line of many markers stays linear.
  int columnOf(std::size_t offset) {
    const std::size_t start = last_newline_ == std::string_view::npos ? 0 : last_newline_ + 1;
    return static_cast<int>(offset - start) + 1;
  }

  // One statement of a line (without ';'). Only the forms of the header comment are read.
  void statement(std::string_view raw, int line) {
    const std::string s = trimmed(raw);
    if (s.empty() || s[0] == '#') return;
    const std::size_t eq = s.find(" = ");
    std::string target;
    std::string rhs = s;
    if (eq != std::string::npos && s.find('(') > eq) {
      target = s.substr(0, eq);
      rhs = s.substr(eq + 3);
    }
    const bool assert_call = rhs.rfind("assert_size_stride(", 0) == 0;
    const bool alloc = !target.empty() && rhs.rfind("empty_strided", 0) == 0;
    const bool view = !target.empty() && rhs.rfind("reinterpret_tensor(", 0) == 0;
    const bool input = !target.empty() && rhs.rfind("rand_strided(", 0) == 0;
    const bool launch = rhs.find(".run(") != std::string::npos && rhs.rfind("triton_", 0) == 0;
    if (!target.empty() && !assert_call && !alloc && !view && !input && !launch) {
      reuse(target, rhs, line);
      return;
    }
    if (!assert_call && !alloc && !view && !input && !launch) return;
    auto parsed = parsePythonLiteral(stripComment(rhs));
    if (!parsed || parsed->kind != PyValue::Kind::kCall) {
      out_.warnings.push_back("line " + std::to_string(line) + ": '" + s.substr(0, 60) + "' could not be read" +
                              (parsed ? std::string() : " (" + parsed.error() + ")"));
      return;
    }
    const PyValue& call = *parsed;
    if (launch) {
      WrapperLaunch l;
      l.kernel = call.text.substr(0, call.text.size() - 4);
      for (const auto& a : call.items) l.args.push_back(a.repr());
      l.line = line;
      out_.launches.push_back(std::move(l));
      return;
    }
    if (call.items.size() < 2) return;
    WrapperBuffer b;
    b.line = line;
    std::size_t first = 0;
    if (assert_call) {
      b.name = call.items[0].repr();
      b.origin = "input";
      first = 1;
    } else if (view) {
      b.name = target;
      b.origin = "view of " + call.items[0].repr();
      first = 1;
    } else {
      b.name = target;
      b.origin = input ? "input" : "allocated";
    }
    if (call.items.size() < first + 2) return;
    b.sizes = textsOf(call.items[first]);
    b.strides = textsOf(call.items[first + 1]);
    if (alloc && call.items.size() > 2) b.dtype = call.items[2].repr();
    if (auto dtype = call.stringAt("dtype")) b.dtype = *dtype;
    if (view) {
      if (const WrapperBuffer* base = find(call.items[0].repr())) b.dtype = base->dtype;
    }
    merge(std::move(b));
  }

  static std::string stripComment(const std::string& s) {
    // A trailing "# reuse" comment; '#' inside strings does not occur in these statements.
    const std::size_t hash = s.find("  #");
    return hash == std::string::npos ? s : s.substr(0, hash);
  }

  // get_args() and call() both name the inputs: keep one entry, completing the dtype.
  // `buf3 = buf1; del buf1  # reuse`: the storage of buf1 under a new name (same sizes, strides, dtype).
  void reuse(const std::string& target, const std::string& rhs, int line) {
    const std::string base = trimmed(rhs.substr(0, rhs.find_first_of(";#")));
    if (base.empty() ||
        base.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
      return;
    const WrapperBuffer* b = find(base);
    if (b == nullptr) return;
    WrapperBuffer copy = *b;
    copy.name = target;
    copy.origin = "reuse of " + base;
    copy.line = line;
    merge(std::move(copy));
  }

  // By name through the index (a wrapper may define 100k buffers: a linear search per statement
  // would be quadratic).
  const WrapperBuffer* find(const std::string& name) const {
    auto it = out_.buffer_index.find(name);
    return it == out_.buffer_index.end() ? nullptr : &out_.buffers[it->second];
  }

  void merge(WrapperBuffer b) {
    if (auto it = out_.buffer_index.find(b.name); it != out_.buffer_index.end()) {
      WrapperBuffer& existing = out_.buffers[it->second];
      if (existing.dtype.empty()) existing.dtype = b.dtype;
      if (existing.sizes.empty()) {
        existing.sizes = b.sizes;
        existing.strides = b.strides;
      }
      return;
    }
    out_.buffer_index.emplace(b.name, out_.buffers.size());
    out_.buffers.push_back(std::move(b));
  }

  std::string_view text_;
  WrapperModule& out_;
};

}  // namespace

const WrapperBuffer* WrapperModule::buffer(std::string_view name) const {
  if (buffer_index.size() == buffers.size()) {
    auto it = buffer_index.find(std::string(name));
    if (it == buffer_index.end()) return nullptr;
    if (it->second < buffers.size() && buffers[it->second].name == name) return &buffers[it->second];
  }
  for (const auto& b : buffers) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

bool looksLikeWrapperModule(std::string_view text) {
  return (text.find("def call(") != std::string_view::npos) &&
         (text.find("async_compile") != std::string_view::npos || text.find(".run(") != std::string_view::npos);
}

Expected<WrapperModule> parseWrapperModule(std::string_view text, std::string path) {
  if (!looksLikeWrapperModule(text))
    return Error{path + ": not an Inductor wrapper module (no 'def call(' with kernel launches)"};
  WrapperModule out;
  out.path = std::move(path);
  WrapperReader reader(text, out);
  reader.embeddedKernels();
  reader.statements();
  return out;
}

}  // namespace occx::triton
