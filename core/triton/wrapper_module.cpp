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

  void embeddedKernels() {
    const std::string_view marker = "async_compile.triton(";
    std::size_t pos = 0;
    std::string last_path;
    std::size_t last_path_at = 0;
    while ((pos = text_.find(marker, pos)) != std::string_view::npos) {
      const std::size_t comment = text_.rfind("# kernel path:", pos);
      std::string module_path;
      if (comment != std::string_view::npos && comment >= last_path_at) {
        std::size_t eol = text_.find('\n', comment);
        module_path = trimmed(text_.substr(comment + 14, eol - comment - 14));
      }
      auto call = parsePythonExpression(text_, pos);
      const int line = lineOf(pos);
      if (!call || call->value.kind != PyValue::Kind::kCall || call->value.items.size() < 2 ||
          !call->value.items[0].isString() || !call->value.items[1].isString()) {
        out_.warnings.push_back("line " + std::to_string(line) +
                                ": an async_compile.triton(...) call is not 'name', '''source''' (" +
                                (call ? std::string("other arguments") : call.error()) + ")");
        pos += marker.size();
        continue;
      }
      out_.kernels.push_back({call->value.items[0].text, module_path, call->value.items[1].text, line});
      last_path_at = pos;
      pos = call->end;
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
    }
    counted_lines_ += static_cast<int>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(counted_to_),
                                                  text_.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    counted_to_ = offset;
    return counted_lines_;
  }
  std::size_t counted_to_ = 0;
  int counted_lines_ = 1;

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
      if (const WrapperBuffer* base = out_.buffer(call.items[0].repr())) b.dtype = base->dtype;
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
    const WrapperBuffer* b = out_.buffer(base);
    if (b == nullptr) return;
    WrapperBuffer copy = *b;
    copy.name = target;
    copy.origin = "reuse of " + base;
    copy.line = line;
    merge(std::move(copy));
  }

  void merge(WrapperBuffer b) {
    for (auto& existing : out_.buffers) {
      if (existing.name == b.name) {
        if (existing.dtype.empty()) existing.dtype = b.dtype;
        if (existing.sizes.empty()) {
          existing.sizes = b.sizes;
          existing.strides = b.strides;
        }
        return;
      }
    }
    out_.buffers.push_back(std::move(b));
  }

  std::string_view text_;
  WrapperModule& out_;
};

}  // namespace

const WrapperBuffer* WrapperModule::buffer(std::string_view name) const {
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
