// A small parser for the Python literal expressions Inductor writes into its kernel modules and
// wrappers: numbers, strings (single, double and triple quoted, with escapes and implicit
// concatenation), True/False/None, lists, tuples, dicts, sets, dotted names (ReductionHint.INNER,
// torch.float32, __file__) and calls with positional and keyword arguments
// (DeviceProperties(type='cuda', …), set(), float('inf')); arithmetic on names and numbers (the
// symbolic sizes of dynamic shapes, "s0*8") is kept as its text.
//
// Source of the grammar: the Python language reference (literals, displays, calls) restricted to
// what torch/_inductor/codegen writes; nothing is evaluated. Comments and line breaks inside
// brackets are skipped. Nesting deeper than kMaxPythonDepth is an error, not a stack overflow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/expected.h"

namespace occx::triton {

/// Deepest nesting of brackets and calls the parser accepts.
inline constexpr int kMaxPythonDepth = 64;

/// Most values (numbers, strings, names, containers, calls) one expression may hold. A decorator of
/// Inductor holds a few hundred; each value costs about 120 bytes, so without a limit a 63 MB
/// module of "[1,1,1,…]" would cost 3.5 GB. More is an error naming the limit.
inline constexpr std::size_t kMaxPythonValues = std::size_t{1} << 18;

/// Where a text handed to the parser starts in its file (1-based), for error messages about a
/// slice of a larger text.
struct TextPosition {
  int line = 1;
  int column = 1;
};

/// One parsed Python expression.
struct PyValue {
  enum class Kind { kNone, kBool, kInt, kFloat, kString, kName, kList, kTuple, kSet, kDict, kCall, kExpression };
  Kind kind = Kind::kNone;
  bool boolean = false;
  std::int64_t integer = 0;
  double number = 0.0;
  /// kString: the string's value; kName: the dotted name ("ReductionHint.INNER"); kCall: the callee;
  /// kExpression: arithmetic kept as written, not evaluated ("s0*8", "ks0 + 1").
  std::string text;
  /// kList / kTuple / kSet: the elements; kCall: the positional arguments.
  std::vector<PyValue> items;
  /// kDict: key → value in file order; kCall: keyword → value (the key is a kString).
  std::vector<std::pair<PyValue, PyValue>> entries;

  // Defined out of line: implicit inline ones make clang (with libstdc++ 12) instantiate
  // std::pair<PyValue, PyValue> while PyValue is still incomplete, which does not compile.
  PyValue();
  PyValue(const PyValue& other);
  PyValue(PyValue&& other) noexcept;
  PyValue& operator=(const PyValue& other);
  PyValue& operator=(PyValue&& other) noexcept;
  ~PyValue();

  [[nodiscard]] bool isString() const { return kind == Kind::kString; }
  [[nodiscard]] bool isInt() const { return kind == Kind::kInt; }
  /// kDict: the value of the string key `key`; kCall: the keyword argument `key`. nullptr otherwise.
  [[nodiscard]] const PyValue* find(std::string_view key) const;
  /// find(key) as an integer (kInt, or kBool as 0/1); nullopt when absent or of another kind.
  [[nodiscard]] std::optional<std::int64_t> intAt(std::string_view key) const;
  /// find(key) as a bool (kBool, or kInt 0/1); nullopt when absent or of another kind.
  [[nodiscard]] std::optional<bool> boolAt(std::string_view key) const;
  /// find(key) as a string (kString, or kName's dotted name); nullopt when absent or of another kind.
  [[nodiscard]] std::optional<std::string> stringAt(std::string_view key) const;
  /// The value written back as Python source: "{'x': 512, 'r0_': 8192}", "ReductionHint.INNER".
  [[nodiscard]] std::string repr() const;
};

/// Where an expression ended: the value and the offset just past it in the text.
struct PyParse {
  PyValue value;
  std::size_t end = 0;
};

/// Parses one expression of `text` starting at byte `offset` (leading blanks and comments skipped).
/// Errors name the line and column (1-based, counted from the start of `text`) and what was
/// expected, e.g. "line 12, column 40: expected ',' or '}' in a dict, found 'x'"; more than
/// kMaxPythonValues values or kMaxPythonDepth levels is an error. Never throws.
Expected<PyParse> parsePythonExpression(std::string_view text, std::size_t offset = 0);

/// As above, for `text` that is a slice of a file starting at `origin` (line and column of its first
/// byte): errors name lines and columns of the file. The cost of an error is the slice's size, so a
/// caller that parses many expressions of one file hands each its own slice.
Expected<PyParse> parsePythonExpression(std::string_view text, std::size_t offset, TextPosition origin);

/// Parses `text` as exactly one expression (only blanks and comments may follow). Errors as above.
Expected<PyValue> parsePythonLiteral(std::string_view text);

}  // namespace occx::triton
