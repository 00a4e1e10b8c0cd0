#include "core/triton/python_literal.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>

namespace occx::triton {
namespace {

bool isNameStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

void appendUtf8(std::string& out, unsigned long code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | ((code >> 18) & 0x07));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

class Parser {
 public:
  Parser(std::string_view text, std::size_t pos, TextPosition origin = {}) : s_(text), pos_(pos), origin_(origin) {}

  // An atom followed by binary arithmetic operators: the whole is kept as text (kExpression).
  Expected<PyValue> expression(int depth) {
    const std::size_t start = pos_;
    auto first = atom(depth);
    if (!first) return first;
    bool arithmetic = false;
    while (true) {
      const std::size_t before = pos_;
      skipInline();
      const std::size_t op = operatorLength();
      if (op == 0) {
        pos_ = before;
        break;
      }
      pos_ += op;
      auto next = atom(depth + 1);
      if (!next) return next;
      arithmetic = true;
    }
    if (!arithmetic) return first;
    PyValue out;
    out.kind = PyValue::Kind::kExpression;
    std::size_t from = start;
    while (from < pos_ && (s_[from] == ' ' || s_[from] == '\t' || s_[from] == '\n' || s_[from] == '\r')) ++from;
    out.text = std::string(s_.substr(from, pos_ - from));
    return out;
  }

  Expected<PyValue> atom(int depth) {
    if (depth > kMaxPythonDepth) return fail("nesting deeper than " + std::to_string(kMaxPythonDepth) + " levels");
    if (++values_ > kMaxPythonValues) {
      return fail("more than " + std::to_string(kMaxPythonValues) +
                  " values in one expression (Inductor writes a few hundred; this reader's limit)");
    }
    skipBlank();
    if (atEnd()) return fail("expected a value, found the end of the text");
    const char c = s_[pos_];
    if (c == '-' || c == '+') return signedNumber(depth);
    if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
        (c == '.' && pos_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])) != 0)) {
      return number();
    }
    if (c == '\'' || c == '"' || isStringPrefix()) return strings();
    if (c == '[') return sequence(depth, ']', PyValue::Kind::kList);
    if (c == '(') return sequence(depth, ')', PyValue::Kind::kTuple);
    if (c == '{') return braces(depth);
    if (isNameStart(c)) return nameOrCall(depth);
    return fail(std::string("expected a value, found '") + c + "'");
  }

  std::size_t pos() const { return pos_; }
  void skipBlank() {
    while (!atEnd()) {
      const char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        ++pos_;
      } else if (c == '\\' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '\n' || s_[pos_ + 1] == '\r')) {
        pos_ += 2;
      } else if (c == '#') {
        while (!atEnd() && s_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }
  bool atEnd() const { return pos_ >= s_.size(); }

  void skipInline() {
    while (!atEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }

  // Length of a binary arithmetic operator at pos_ ("+", "-", "*", "/", "//", "%", "**"), else 0.
  std::size_t operatorLength() const {
    if (atEnd()) return 0;
    const char c = s_[pos_];
    const char next = pos_ + 1 < s_.size() ? s_[pos_ + 1] : '\0';
    if (next == '=') return 0;  // an assignment, not arithmetic
    if ((c == '*' || c == '/') && next == c) return 2;
    if (c == '+' || c == '-' || c == '*' || c == '/' || c == '%') return 1;
    return 0;
  }

  Error failAt(const std::string& what) const {
    int line = origin_.line;
    int column = origin_.column;
    for (std::size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return Error{"line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what};
  }

 private:
  Error fail(const std::string& what) const { return failAt(what); }

  std::string found() const {
    if (atEnd()) return "the end of the text";
    return std::string("'") + s_[pos_] + "'";
  }

  Expected<PyValue> signedNumber(int depth) {
    const bool negative = s_[pos_] == '-';
    ++pos_;
    auto v = atom(depth + 1);
    if (!v) return v;
    PyValue out = std::move(v.value());
    if (out.kind == PyValue::Kind::kInt) {
      if (negative) out.integer = -out.integer;
    } else if (out.kind == PyValue::Kind::kFloat) {
      if (negative) out.number = -out.number;
    } else if (out.kind == PyValue::Kind::kName || out.kind == PyValue::Kind::kExpression) {
      out.text = std::string(negative ? "-" : "+") + out.text;
      out.kind = PyValue::Kind::kExpression;
    } else {
      return fail("a sign must be followed by a number or a name");
    }
    return out;
  }

  Expected<PyValue> number() {
    const std::size_t start = pos_;
    bool is_float = false;
    if (s_[pos_] == '0' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == 'x' || s_[pos_ + 1] == 'X')) {
      pos_ += 2;
      std::string digits;
      while (!atEnd() && (std::isxdigit(static_cast<unsigned char>(s_[pos_])) != 0 || s_[pos_] == '_')) {
        if (s_[pos_] != '_') digits += s_[pos_];
        ++pos_;
      }
      PyValue v;
      v.kind = PyValue::Kind::kInt;
      auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v.integer, 16);
      if (ec != std::errc{} || p != digits.data() + digits.size() || digits.empty()) {
        return fail("'" + std::string(s_.substr(start, pos_ - start)) + "' is not a hexadecimal integer of 64 bits");
      }
      return v;
    }
    std::string digits;
    while (!atEnd()) {
      const char c = s_[pos_];
      if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
        digits += c;
      } else if (c == '_') {
        // digit separator
      } else if (c == '.' || c == 'e' || c == 'E') {
        is_float = true;
        digits += c;
        if ((c == 'e' || c == 'E') && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '-' || s_[pos_ + 1] == '+')) {
          digits += s_[++pos_];
        }
      } else {
        break;
      }
      ++pos_;
    }
    const std::string shown(s_.substr(start, pos_ - start));
    PyValue v;
    if (is_float) {
      v.kind = PyValue::Kind::kFloat;
      char* end = nullptr;
      v.number = std::strtod(digits.c_str(), &end);
      if (end != digits.c_str() + digits.size()) return fail("'" + shown + "' is not a number");
      return v;
    }
    v.kind = PyValue::Kind::kInt;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v.integer);
    if (ec != std::errc{} || p != digits.data() + digits.size()) {
      return fail("'" + shown + "' is not an integer of 64 bits");
    }
    return v;
  }

  bool isStringPrefix() const {
    std::size_t i = pos_;
    int letters = 0;
    while (i < s_.size() && letters < 2 && std::strchr("rRbBuU", s_[i]) != nullptr && s_[i] != '\0') {
      ++i;
      ++letters;
    }
    return letters > 0 && i < s_.size() && (s_[i] == '\'' || s_[i] == '"');
  }

  Expected<PyValue> strings() {
    PyValue out;
    out.kind = PyValue::Kind::kString;
    do {
      auto piece = oneString();
      if (!piece) return Error{piece.error()};
      out.text += *piece;
      skipBlank();
    } while (!atEnd() && (s_[pos_] == '\'' || s_[pos_] == '"' || isStringPrefix()));
    return out;
  }

  Expected<std::string> oneString() {
    bool raw = false;
    while (s_[pos_] != '\'' && s_[pos_] != '"') {
      if (s_[pos_] == 'r' || s_[pos_] == 'R') raw = true;
      ++pos_;
    }
    const char quote = s_[pos_];
    const bool triple = pos_ + 2 < s_.size() && s_[pos_ + 1] == quote && s_[pos_ + 2] == quote;
    const std::size_t open = pos_;
    pos_ += triple ? 3 : 1;
    std::string value;
    while (true) {
      if (atEnd()) {
        pos_ = open;
        return fail("a string opened here is not closed");
      }
      const char c = s_[pos_];
      if (c == quote && (!triple || (pos_ + 2 < s_.size() && s_[pos_ + 1] == quote && s_[pos_ + 2] == quote))) {
        pos_ += triple ? 3 : 1;
        return value;
      }
      if (c == '\n' && !triple) {
        pos_ = open;
        return fail("a string opened here ends at the end of the line");
      }
      if (c == '\\' && !raw && pos_ + 1 < s_.size()) {
        auto escaped = escape(value);
        if (!escaped) return Error{escaped.error()};
        continue;
      }
      if (c == '\\' && raw && pos_ + 1 < s_.size()) {
        value += c;
        value += s_[pos_ + 1];
        pos_ += 2;
        continue;
      }
      value += c;
      ++pos_;
    }
  }

  // At a backslash: appends the escaped character and moves past the escape.
  Expected<bool> escape(std::string& value) {
    const char e = s_[pos_ + 1];
    pos_ += 2;
    switch (e) {
      case 'n':
        value += '\n';
        return true;
      case 't':
        value += '\t';
        return true;
      case 'r':
        value += '\r';
        return true;
      case 'a':
        value += '\a';
        return true;
      case 'b':
        value += '\b';
        return true;
      case 'f':
        value += '\f';
        return true;
      case 'v':
        value += '\v';
        return true;
      case '\n':
        return true;
      case '\\':
      case '\'':
      case '"':
        value += e;
        return true;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7': {
        // Up to three octal digits: '\0' is NUL, '\101' is 'A'.
        unsigned code = static_cast<unsigned>(e - '0');
        for (int i = 1; i < 3 && !atEnd() && s_[pos_] >= '0' && s_[pos_] <= '7'; ++i) {
          code = code * 8 + static_cast<unsigned>(s_[pos_++] - '0');
        }
        appendUtf8(value, code);
        return true;
      }
      case 'x':
        return hexEscape(value, 2);
      case 'u':
        return hexEscape(value, 4);
      case 'U':
        return hexEscape(value, 8);
      default:
        value += '\\';
        value += e;
        return true;
    }
  }

  Expected<bool> hexEscape(std::string& value, int digits) {
    if (pos_ + static_cast<std::size_t>(digits) > s_.size()) return fail("a \\x, \\u or \\U escape is cut short");
    unsigned long code = 0;
    auto [p, ec] = std::from_chars(s_.data() + pos_, s_.data() + pos_ + digits, code, 16);
    if (ec != std::errc{} || p != s_.data() + pos_ + digits || code > 0x10FFFF) {
      return fail("'" + std::string(s_.substr(pos_, static_cast<std::size_t>(digits))) + "' is not a valid escape");
    }
    pos_ += static_cast<std::size_t>(digits);
    appendUtf8(value, code);  // a str escape: '\xe9' is the same character as '\u00e9'
    return true;
  }

  // Comma-separated items up to `close`; for calls, NAME=value items are keywords.
  Expected<bool> items(int depth, char close, PyValue& out, bool keywords, bool& saw_comma) {
    saw_comma = false;
    while (true) {
      skipBlank();
      if (atEnd()) return fail(std::string("expected '") + close + "', found the end of the text");
      if (s_[pos_] == close) {
        ++pos_;
        return true;
      }
      if (keywords && isNameStart(s_[pos_])) {
        std::size_t k = pos_;
        while (k < s_.size() && isNameChar(s_[k])) ++k;
        std::size_t eq = k;
        while (eq < s_.size() && (s_[eq] == ' ' || s_[eq] == '\t')) ++eq;
        if (eq < s_.size() && s_[eq] == '=' && (eq + 1 >= s_.size() || s_[eq + 1] != '=')) {
          PyValue key;
          key.kind = PyValue::Kind::kString;
          key.text = std::string(s_.substr(pos_, k - pos_));
          pos_ = eq + 1;
          auto v = expression(depth + 1);
          if (!v) return Error{v.error()};
          out.entries.emplace_back(std::move(key), std::move(v.value()));
          if (!separator(close, saw_comma))
            return fail(std::string("expected ',' or '") + close + "', found " + found());
          continue;
        }
      }
      auto v = expression(depth + 1);
      if (!v) return Error{v.error()};
      out.items.push_back(std::move(v.value()));
      if (!separator(close, saw_comma)) return fail(std::string("expected ',' or '") + close + "', found " + found());
    }
  }

  // After an item: a comma (consumed) or the closing bracket (left for the loop).
  bool separator(char close, bool& saw_comma) {
    skipBlank();
    if (atEnd()) return false;
    if (s_[pos_] == ',') {
      saw_comma = true;
      ++pos_;
      return true;
    }
    return s_[pos_] == close;
  }

  Expected<PyValue> sequence(int depth, char close, PyValue::Kind kind) {
    ++pos_;
    PyValue out;
    out.kind = kind;
    bool saw_comma = false;
    auto ok = items(depth, close, out, false, saw_comma);
    if (!ok) return Error{ok.error()};
    if (kind == PyValue::Kind::kTuple && out.items.size() == 1 && !saw_comma) {
      PyValue inner = std::move(out.items.front());  // a parenthesised expression, not a tuple
      return inner;
    }
    return out;
  }

  Expected<PyValue> braces(int depth) {
    const std::size_t open = pos_;
    ++pos_;
    PyValue out;
    out.kind = PyValue::Kind::kDict;
    while (true) {
      skipBlank();
      if (atEnd()) {
        pos_ = open;
        return fail("a '{' opened here is not closed");
      }
      if (s_[pos_] == '}') {
        ++pos_;
        return out;
      }
      auto key = expression(depth + 1);
      if (!key) return Error{key.error()};
      skipBlank();
      if (!atEnd() && s_[pos_] == ':' && out.kind == PyValue::Kind::kDict) {
        ++pos_;
        auto value = expression(depth + 1);
        if (!value) return Error{value.error()};
        out.entries.emplace_back(std::move(key.value()), std::move(value.value()));
      } else if (out.entries.empty()) {
        out.kind = PyValue::Kind::kSet;
        out.items.push_back(std::move(key.value()));
      } else {
        return fail("expected ':' in a dict, found " + found());
      }
      bool saw_comma = false;
      if (!separator('}', saw_comma)) {
        return fail(std::string(out.kind == PyValue::Kind::kSet ? "expected ',' or '}' in a set, found "
                                                                : "expected ',' or '}' in a dict, found ") +
                    found());
      }
    }
  }

  Expected<PyValue> nameOrCall(int depth) {
    std::string name;
    while (true) {
      const std::size_t start = pos_;
      while (!atEnd() && isNameChar(s_[pos_])) ++pos_;
      name.append(s_.substr(start, pos_ - start));
      if (!atEnd() && s_[pos_] == '.' && pos_ + 1 < s_.size() && isNameStart(s_[pos_ + 1])) {
        name += '.';
        ++pos_;
        continue;
      }
      break;
    }
    PyValue out;
    if (name == "True" || name == "False") {
      out.kind = PyValue::Kind::kBool;
      out.boolean = name == "True";
      return out;
    }
    if (name == "None") return out;
    std::size_t after = pos_;
    while (after < s_.size() && (s_[after] == ' ' || s_[after] == '\t')) ++after;
    if (after < s_.size() && s_[after] == '(') {
      pos_ = after + 1;
      out.kind = PyValue::Kind::kCall;
      out.text = name;
      bool saw_comma = false;
      auto ok = items(depth, ')', out, true, saw_comma);
      if (!ok) return Error{ok.error()};
      return out;
    }
    out.kind = PyValue::Kind::kName;
    out.text = name;
    return out;
  }

  std::string_view s_;
  std::size_t pos_;
  TextPosition origin_;
  std::size_t values_ = 0;  ///< values made so far (atoms), against kMaxPythonValues
};

std::string pyQuoted(const std::string& s) {
  std::string out = "'";
  for (const char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "'";
}

std::string pyJoined(const std::vector<PyValue>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += items[i].repr();
  }
  return out;
}

}  // namespace

PyValue::PyValue() = default;
PyValue::PyValue(const PyValue& other) = default;
PyValue::PyValue(PyValue&& other) noexcept = default;
PyValue& PyValue::operator=(const PyValue& other) = default;
PyValue& PyValue::operator=(PyValue&& other) noexcept = default;
PyValue::~PyValue() = default;

const PyValue* PyValue::find(std::string_view key) const {
  if (kind != Kind::kDict && kind != Kind::kCall) return nullptr;
  for (const auto& [k, v] : entries) {
    if (k.kind == Kind::kString && k.text == key) return &v;
  }
  return nullptr;
}

std::optional<std::int64_t> PyValue::intAt(std::string_view key) const {
  const PyValue* v = find(key);
  if (v == nullptr) return std::nullopt;
  if (v->kind == Kind::kInt) return v->integer;
  if (v->kind == Kind::kBool) return v->boolean ? 1 : 0;
  return std::nullopt;
}

std::optional<bool> PyValue::boolAt(std::string_view key) const {
  const PyValue* v = find(key);
  if (v == nullptr) return std::nullopt;
  if (v->kind == Kind::kBool) return v->boolean;
  if (v->kind == Kind::kInt && (v->integer == 0 || v->integer == 1)) return v->integer == 1;
  return std::nullopt;
}

std::optional<std::string> PyValue::stringAt(std::string_view key) const {
  const PyValue* v = find(key);
  if (v == nullptr || (v->kind != Kind::kString && v->kind != Kind::kName)) return std::nullopt;
  return v->text;
}

std::string PyValue::repr() const {
  switch (kind) {
    case Kind::kNone:
      return "None";
    case Kind::kBool:
      return boolean ? "True" : "False";
    case Kind::kInt:
      return std::to_string(integer);
    case Kind::kFloat: {
      char buffer[32];
      auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, number);
      std::string out(buffer, ec == std::errc{} ? end : buffer);
      if (out.find_first_of(".eEn") == std::string::npos) out += ".0";  // 2.0, not 2; inf and nan stay
      return out;
    }
    case Kind::kString:
      return pyQuoted(text);
    case Kind::kName:
    case Kind::kExpression:
      return text;
    case Kind::kList:
      return "[" + pyJoined(items) + "]";
    case Kind::kTuple:
      return "(" + pyJoined(items) + (items.size() == 1 ? ",)" : ")");
    case Kind::kSet:
      return items.empty() ? "set()" : "{" + pyJoined(items) + "}";
    case Kind::kDict: {
      std::string out = "{";
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (i > 0) out += ", ";
        out += entries[i].first.repr() + ": " + entries[i].second.repr();
      }
      return out + "}";
    }
    case Kind::kCall: {
      std::string out = text + "(" + pyJoined(items);
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (i > 0 || !items.empty()) out += ", ";
        out += entries[i].first.text + "=" + entries[i].second.repr();
      }
      return out + ")";
    }
  }
  return {};
}

Expected<PyParse> parsePythonExpression(std::string_view text, std::size_t offset) {
  return parsePythonExpression(text, offset, TextPosition{});
}

Expected<PyParse> parsePythonExpression(std::string_view text, std::size_t offset, TextPosition origin) {
  if (offset > text.size()) return Error{"offset " + std::to_string(offset) + " is past the end of the text"};
  Parser p(text, offset, origin);
  auto v = p.expression(0);
  if (!v) return Error{v.error()};
  return PyParse{std::move(v.value()), p.pos()};
}

Expected<PyValue> parsePythonLiteral(std::string_view text) {
  Parser p(text, 0);
  auto v = p.expression(0);
  if (!v) return Error{v.error()};
  p.skipBlank();
  if (!p.atEnd()) return p.failAt("unexpected text after the value");
  return std::move(v.value());
}

}  // namespace occx::triton
