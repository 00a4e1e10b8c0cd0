// The Python literal parser: numbers, strings and their escapes, displays, names, calls, arithmetic
// kept as text, comments inside brackets, the lookup helpers, repr() and the errors (with the line
// and column they name, counted here by hand).
#include <gtest/gtest.h>

#include <string>

#include "core/triton/python_literal.h"

using namespace occx::triton;
using Kind = PyValue::Kind;

namespace {

PyValue parsed(const std::string& text) {
  auto v = parsePythonLiteral(text);
  EXPECT_TRUE(v.hasValue()) << text << ": " << v.error();
  return v.hasValue() ? v.value() : PyValue{};
}

std::string errorOf(const std::string& text) {
  auto v = parsePythonLiteral(text);
  EXPECT_FALSE(v.hasValue()) << text << " parsed as " << (v.hasValue() ? v->repr() : "");
  return v.error();
}

std::int64_t intOf(const std::string& text) {
  const PyValue v = parsed(text);
  EXPECT_EQ(v.kind, Kind::kInt) << text;
  return v.integer;
}

double floatOf(const std::string& text) {
  const PyValue v = parsed(text);
  EXPECT_EQ(v.kind, Kind::kFloat) << text;
  return v.number;
}

std::string stringOf(const std::string& text) {
  const PyValue v = parsed(text);
  EXPECT_EQ(v.kind, Kind::kString) << text;
  return v.text;
}

}  // namespace

TEST(PythonLiteral, Integers) {
  EXPECT_EQ(intOf("0"), 0);
  EXPECT_EQ(intOf("42"), 42);
  EXPECT_EQ(intOf("-7"), -7);
  EXPECT_EQ(intOf("+5"), 5);
  EXPECT_EQ(intOf("0x1F"), 31);
  EXPECT_EQ(intOf("0XfF"), 255);
  EXPECT_EQ(intOf("-0x10"), -16);
  EXPECT_EQ(intOf("0xFF_FF"), 65535);
  EXPECT_EQ(intOf("1_000_000"), 1000000);
  EXPECT_EQ(intOf("9223372036854775807"), INT64_C(9223372036854775807));
  EXPECT_EQ(intOf("  2684354560  # a comment"), INT64_C(2684354560));
}

TEST(PythonLiteral, IntegersThatDoNotFitOrAreEmptyAreErrors) {
  EXPECT_NE(errorOf("9223372036854775808").find("is not an integer of 64 bits"), std::string::npos);
  EXPECT_NE(errorOf("0x").find("'0x' is not a hexadecimal integer"), std::string::npos);
  EXPECT_NE(errorOf("0x1_0000_0000_0000_0000").find("is not a hexadecimal integer of 64 bits"), std::string::npos);
}

TEST(PythonLiteral, Floats) {
  EXPECT_DOUBLE_EQ(floatOf("1.5"), 1.5);
  EXPECT_DOUBLE_EQ(floatOf("1e-3"), 0.001);
  EXPECT_DOUBLE_EQ(floatOf("-2.0"), -2.0);
  EXPECT_DOUBLE_EQ(floatOf("2.5E+2"), 250.0);
  EXPECT_DOUBLE_EQ(floatOf("1e5"), 100000.0);
  EXPECT_DOUBLE_EQ(floatOf(".25"), 0.25);
  EXPECT_DOUBLE_EQ(floatOf("3."), 3.0);
  EXPECT_DOUBLE_EQ(floatOf("1_0.5"), 10.5);
}

TEST(PythonLiteral, QuotedStrings) {
  EXPECT_EQ(stringOf("'cuda'"), "cuda");
  EXPECT_EQ(stringOf("\"cuda\""), "cuda");
  EXPECT_EQ(stringOf("''"), "");
  EXPECT_EQ(stringOf("'say \"hi\"'"), "say \"hi\"");
  EXPECT_EQ(stringOf("\"it's\""), "it's");
  EXPECT_EQ(stringOf("'''one\ntwo's \"three\"'''"), "one\ntwo's \"three\"");
  EXPECT_EQ(stringOf("\"\"\"a\n'b'\n\"\"\""), "a\n'b'\n");
  // A triple-quoted string ends at the first three quotes, not at one or two.
  EXPECT_EQ(stringOf("'''a'b''c'''"), "a'b''c");
}

TEST(PythonLiteral, Escapes) {
  EXPECT_EQ(stringOf(R"('a\nb')"), "a\nb");
  EXPECT_EQ(stringOf(R"('a\tb')"), "a\tb");
  EXPECT_EQ(stringOf(R"('it\'s')"), "it's");
  EXPECT_EQ(stringOf(R"("\"q\"")"), "\"q\"");
  EXPECT_EQ(stringOf(R"('back\\slash')"), "back\\slash");
  EXPECT_EQ(stringOf(R"('\x41\x42')"), "AB");
  EXPECT_EQ(stringOf(R"('caf\u00e9')"), "caf\xc3\xa9");
  EXPECT_EQ(stringOf(R"('\u20ac')"), "\xe2\x82\xac");
  EXPECT_EQ(stringOf(R"('\U0001F600')"), "\xf0\x9f\x98\x80");
  EXPECT_EQ(stringOf("'a\\\nb'"), "ab");      // a backslash before the line break joins the lines
  EXPECT_EQ(stringOf(R"('\d')"), "\\d");      // an unknown escape keeps its backslash, as in Python
  EXPECT_EQ(stringOf(R"('\101\60')"), "A0");  // octal escapes: \101 is 'A', \60 is '0'
  EXPECT_EQ(stringOf(R"('\0')"), std::string(1, '\0'));
  // Escapes name characters of a str, not bytes: '\xe9', '\351' and '\u00e9' are all é.
  EXPECT_EQ(stringOf(R"('\xe9')"), "\xc3\xa9");
  EXPECT_EQ(stringOf(R"('\351')"), "\xc3\xa9");
  EXPECT_EQ(stringOf(R"('\1234')"), "S4");  // at most three octal digits
}

TEST(PythonLiteral, BadEscapesAreErrors) {
  EXPECT_NE(errorOf(R"('\xZZ')").find("'ZZ' is not a valid escape"), std::string::npos);
  EXPECT_NE(errorOf(R"('\u00zz')").find("'00zz' is not a valid escape"), std::string::npos);
  EXPECT_NE(errorOf(R"('\u00)").find("escape is cut short"), std::string::npos);
  EXPECT_NE(errorOf(R"('\U0011FFFF')").find("is not a valid escape"), std::string::npos);  // above U+10FFFF
}

TEST(PythonLiteral, RawAndPrefixedStrings) {
  EXPECT_EQ(stringOf(R"(r'a\nb')"), "a\\nb");
  EXPECT_EQ(stringOf(R"(R"\d+")"), "\\d+");
  EXPECT_EQ(stringOf(R"(r'a\'b')"), "a\\'b");  // the escaped quote does not end a raw string
  EXPECT_EQ(stringOf(R"(b'\x41')"), "A");
  EXPECT_EQ(stringOf(R"(rb'\x41')"), "\\x41");
  EXPECT_EQ(stringOf("u'x'"), "x");
}

TEST(PythonLiteral, ImplicitConcatenation) {
  EXPECT_EQ(stringOf("'a' \"b\""), "ab");
  EXPECT_EQ(stringOf("('a'\n 'b'  # comment\n r'\\c')"), "ab\\c");
  const PyValue d = parsed("{'k': 'x' 'y', 'n': 1}");
  EXPECT_EQ(d.stringAt("k"), "xy");
  EXPECT_EQ(d.intAt("n"), 1);
}

TEST(PythonLiteral, Constants) {
  const PyValue t = parsed("True");
  EXPECT_EQ(t.kind, Kind::kBool);
  EXPECT_TRUE(t.boolean);
  const PyValue f = parsed("False");
  EXPECT_EQ(f.kind, Kind::kBool);
  EXPECT_FALSE(f.boolean);
  EXPECT_EQ(parsed("None").kind, Kind::kNone);
  // Names that only start like a constant are names.
  const PyValue n = parsed("Nonesuch");
  EXPECT_EQ(n.kind, Kind::kName);
  EXPECT_EQ(n.text, "Nonesuch");
}

TEST(PythonLiteral, NestedDisplays) {
  const PyValue v = parsed("[1, (2, 3), {'a': [4]}, {5, 6}, [], (), {}]");
  ASSERT_EQ(v.kind, Kind::kList);
  ASSERT_EQ(v.items.size(), 7u);
  EXPECT_EQ(v.items[0].integer, 1);
  ASSERT_EQ(v.items[1].kind, Kind::kTuple);
  ASSERT_EQ(v.items[1].items.size(), 2u);
  EXPECT_EQ(v.items[1].items[1].integer, 3);
  ASSERT_EQ(v.items[2].kind, Kind::kDict);
  ASSERT_EQ(v.items[2].entries.size(), 1u);
  EXPECT_EQ(v.items[2].entries[0].first.text, "a");
  const PyValue* a = v.items[2].find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->kind, Kind::kList);
  ASSERT_EQ(a->items.size(), 1u);
  EXPECT_EQ(a->items[0].integer, 4);
  ASSERT_EQ(v.items[3].kind, Kind::kSet);
  ASSERT_EQ(v.items[3].items.size(), 2u);
  EXPECT_EQ(v.items[3].items[0].integer, 5);
  EXPECT_EQ(v.items[3].items[1].integer, 6);
  EXPECT_EQ(v.items[4].kind, Kind::kList);
  EXPECT_TRUE(v.items[4].items.empty());
  EXPECT_EQ(v.items[5].kind, Kind::kTuple);
  EXPECT_TRUE(v.items[5].items.empty());
  EXPECT_EQ(v.items[6].kind, Kind::kDict);
  EXPECT_TRUE(v.items[6].entries.empty());
}

TEST(PythonLiteral, DictWithTupleKeysAsInTritonMetaConfigs) {
  const PyValue v = parsed("[{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]");
  ASSERT_EQ(v.kind, Kind::kList);
  ASSERT_EQ(v.items.size(), 1u);
  const PyValue& d = v.items[0];
  ASSERT_EQ(d.kind, Kind::kDict);
  ASSERT_EQ(d.entries.size(), 2u);
  ASSERT_EQ(d.entries[1].first.kind, Kind::kTuple);
  ASSERT_EQ(d.entries[1].first.items.size(), 1u);
  EXPECT_EQ(d.entries[1].first.items[0].integer, 1);
  const PyValue& pair = d.entries[1].second.items.at(0);
  ASSERT_EQ(pair.items.size(), 2u);
  EXPECT_EQ(pair.items[0].text, "tt.divisibility");
  EXPECT_EQ(pair.items[1].integer, 16);
  EXPECT_EQ(d.find("1"), nullptr);  // only string keys are found by name
}

TEST(PythonLiteral, EmptySetIsACall) {
  const PyValue v = parsed("set()");
  EXPECT_EQ(v.kind, Kind::kCall);
  EXPECT_EQ(v.text, "set");
  EXPECT_TRUE(v.items.empty());
  EXPECT_TRUE(v.entries.empty());
  EXPECT_EQ(v.repr(), "set()");
}

TEST(PythonLiteral, OneTupleAgainstParentheses) {
  const PyValue one = parsed("(1,)");
  ASSERT_EQ(one.kind, Kind::kTuple);
  ASSERT_EQ(one.items.size(), 1u);
  EXPECT_EQ(one.items[0].integer, 1);
  const PyValue paren = parsed("(1)");
  EXPECT_EQ(paren.kind, Kind::kInt);
  EXPECT_EQ(paren.integer, 1);
  const PyValue nested = parsed("((('x')))");
  EXPECT_EQ(nested.kind, Kind::kString);
  EXPECT_EQ(nested.text, "x");
  const PyValue trailing = parsed("(512, )");  // as the wrapper writes 1-d sizes
  ASSERT_EQ(trailing.kind, Kind::kTuple);
  EXPECT_EQ(trailing.items.size(), 1u);
  const PyValue two = parsed("[1, 2,]");
  EXPECT_EQ(two.items.size(), 2u);
}

TEST(PythonLiteral, DottedNames) {
  const PyValue hint = parsed("ReductionHint.INNER");
  EXPECT_EQ(hint.kind, Kind::kName);
  EXPECT_EQ(hint.text, "ReductionHint.INNER");
  EXPECT_EQ(parsed("torch.float32").text, "torch.float32");
  EXPECT_EQ(parsed("__file__").text, "__file__");
  const PyValue a = parsed("a.b.c_1");
  EXPECT_EQ(a.kind, Kind::kName);
  EXPECT_EQ(a.text, "a.b.c_1");
}

TEST(PythonLiteral, CallsWithPositionalAndKeywordArguments) {
  const PyValue d = parsed("DeviceProperties(type='cuda', index=0, cc=90)");
  ASSERT_EQ(d.kind, Kind::kCall);
  EXPECT_EQ(d.text, "DeviceProperties");
  EXPECT_TRUE(d.items.empty());
  ASSERT_EQ(d.entries.size(), 3u);
  EXPECT_EQ(d.entries[0].first.kind, Kind::kString);
  EXPECT_EQ(d.entries[0].first.text, "type");
  EXPECT_EQ(d.entries[2].first.text, "cc");
  EXPECT_EQ(d.stringAt("type"), "cuda");
  EXPECT_EQ(d.intAt("index"), 0);
  EXPECT_EQ(d.intAt("cc"), 90);

  const PyValue mixed = parsed("rand_strided((512, 8192), (8192, 1), device='cuda:0', dtype=torch.float16)");
  ASSERT_EQ(mixed.kind, Kind::kCall);
  EXPECT_EQ(mixed.text, "rand_strided");
  ASSERT_EQ(mixed.items.size(), 2u);
  EXPECT_EQ(mixed.items[0].kind, Kind::kTuple);
  EXPECT_EQ(mixed.items[1].items[0].integer, 8192);
  ASSERT_EQ(mixed.entries.size(), 2u);
  EXPECT_EQ(mixed.stringAt("device"), "cuda:0");
  EXPECT_EQ(mixed.stringAt("dtype"), "torch.float16");

  const PyValue inf = parsed("float('-inf')");
  ASSERT_EQ(inf.kind, Kind::kCall);
  EXPECT_EQ(inf.text, "float");
  ASSERT_EQ(inf.items.size(), 1u);
  EXPECT_EQ(inf.items[0].text, "-inf");

  const PyValue dotted = parsed("triton_heuristics.reduction (size_hints={'x': 1})");
  EXPECT_EQ(dotted.kind, Kind::kCall);
  EXPECT_EQ(dotted.text, "triton_heuristics.reduction");
  ASSERT_NE(dotted.find("size_hints"), nullptr);
  EXPECT_EQ(dotted.find("size_hints")->intAt("x"), 1);
}

TEST(PythonLiteral, ArithmeticIsKeptAsText) {
  const PyValue mul = parsed("s0*8");
  EXPECT_EQ(mul.kind, Kind::kExpression);
  EXPECT_EQ(mul.text, "s0*8");
  const PyValue add = parsed("ks0 + 1");
  EXPECT_EQ(add.kind, Kind::kExpression);
  EXPECT_EQ(add.text, "ks0 + 1");
  const PyValue neg = parsed("-s1");
  EXPECT_EQ(neg.kind, Kind::kExpression);
  EXPECT_EQ(neg.text, "-s1");
  const PyValue grouped = parsed("(s0 + 1) * 2");
  EXPECT_EQ(grouped.kind, Kind::kExpression);
  EXPECT_EQ(grouped.text, "(s0 + 1) * 2");
  const PyValue ops = parsed("  s0 // 2 % 3 ** 2");
  EXPECT_EQ(ops.kind, Kind::kExpression);
  EXPECT_EQ(ops.text, "s0 // 2 % 3 ** 2");

  const PyValue sizes = parsed("(ks0*8, 1, -s1, s2 - 1)");
  ASSERT_EQ(sizes.kind, Kind::kTuple);
  ASSERT_EQ(sizes.items.size(), 4u);
  EXPECT_EQ(sizes.items[0].kind, Kind::kExpression);
  EXPECT_EQ(sizes.items[0].text, "ks0*8");
  EXPECT_EQ(sizes.items[1].kind, Kind::kInt);
  EXPECT_EQ(sizes.items[2].text, "-s1");
  EXPECT_EQ(sizes.items[3].text, "s2 - 1");
  EXPECT_EQ(sizes.repr(), "(ks0*8, 1, -s1, s2 - 1)");
}

TEST(PythonLiteral, CommentsAndLineBreaksInsideBrackets) {
  const PyValue v = parsed("[1,  # one\n   2,\n   # only a comment, with ] and ,\n   3\n]");
  ASSERT_EQ(v.kind, Kind::kList);
  ASSERT_EQ(v.items.size(), 3u);
  EXPECT_EQ(v.items[2].integer, 3);
  const PyValue d = parsed("{\n    'a': 1,  # c\n    'b':\n        2,\n}");
  ASSERT_EQ(d.kind, Kind::kDict);
  EXPECT_EQ(d.intAt("a"), 1);
  EXPECT_EQ(d.intAt("b"), 2);
  const PyValue call = parsed("f(\n  1,\n  x=2,  # last\n)");
  ASSERT_EQ(call.kind, Kind::kCall);
  EXPECT_EQ(call.items.size(), 1u);
  EXPECT_EQ(call.intAt("x"), 2);
}

TEST(PythonLiteral, LookupHelpers) {
  const PyValue d = parsed(
      "{'a': 1, 'b': True, 'c': 'x', 'd': ReductionHint.INNER, 'e': 2, 'f': None, 'g': False, 'h': 0, 1: 'one'}");
  ASSERT_EQ(d.kind, Kind::kDict);
  ASSERT_NE(d.find("a"), nullptr);
  EXPECT_EQ(d.find("a")->integer, 1);
  EXPECT_EQ(d.find("zz"), nullptr);
  EXPECT_EQ(d.find("1"), nullptr);
  ASSERT_NE(d.find("f"), nullptr);
  EXPECT_EQ(d.find("f")->kind, Kind::kNone);

  EXPECT_EQ(d.intAt("a"), 1);
  EXPECT_EQ(d.intAt("b"), 1);  // a bool as 0/1
  EXPECT_EQ(d.intAt("g"), 0);
  EXPECT_EQ(d.intAt("c"), std::nullopt);
  EXPECT_EQ(d.intAt("f"), std::nullopt);
  EXPECT_EQ(d.intAt("zz"), std::nullopt);

  EXPECT_EQ(d.boolAt("b"), true);
  EXPECT_EQ(d.boolAt("g"), false);
  EXPECT_EQ(d.boolAt("a"), true);  // an int 0/1 as a bool
  EXPECT_EQ(d.boolAt("h"), false);
  EXPECT_EQ(d.boolAt("e"), std::nullopt);  // 2 is not a bool
  EXPECT_EQ(d.boolAt("c"), std::nullopt);
  EXPECT_EQ(d.boolAt("zz"), std::nullopt);

  EXPECT_EQ(d.stringAt("c"), "x");
  EXPECT_EQ(d.stringAt("d"), "ReductionHint.INNER");  // a name by its dotted text
  EXPECT_EQ(d.stringAt("a"), std::nullopt);
  EXPECT_EQ(d.stringAt("f"), std::nullopt);
  EXPECT_EQ(d.stringAt("zz"), std::nullopt);

  // Only dicts and calls have keys.
  const PyValue list = parsed("['a', 1]");
  EXPECT_EQ(list.find("a"), nullptr);
  EXPECT_EQ(list.intAt("a"), std::nullopt);
  const PyValue name = parsed("a");
  EXPECT_EQ(name.find("a"), nullptr);
}

TEST(PythonLiteral, ReprWritesPythonSource) {
  EXPECT_EQ(parsed("{'x': 512, 'r0_': 8192}").repr(), "{'x': 512, 'r0_': 8192}");
  EXPECT_EQ(parsed("ReductionHint.INNER").repr(), "ReductionHint.INNER");
  EXPECT_EQ(parsed("( 1 , )").repr(), "(1,)");
  EXPECT_EQ(parsed("(1,2)").repr(), "(1, 2)");
  EXPECT_EQ(parsed("()").repr(), "()");
  EXPECT_EQ(parsed("{1,2}").repr(), "{1, 2}");
  EXPECT_EQ(parsed("[True, False, None]").repr(), "[True, False, None]");
  EXPECT_EQ(parsed("\"it's\"").repr(), R"('it\'s')");
  EXPECT_EQ(parsed(R"('a\nb\\c')").repr(), R"('a\nb\\c')");
  EXPECT_EQ(parsed("-2.0").repr(), "-2.0");
  EXPECT_EQ(parsed("1.5").repr(), "1.5");
  EXPECT_EQ(parsed("1e-3").repr(), "0.001");
  EXPECT_EQ(parsed("0x10").repr(), "16");
  EXPECT_EQ(parsed("DeviceProperties(type = 'cuda', index=0, cc=90)").repr(),
            "DeviceProperties(type='cuda', index=0, cc=90)");
  EXPECT_EQ(parsed("f(1, 'a', k=[2])").repr(), "f(1, 'a', k=[2])");
}

TEST(PythonLiteral, ReprRoundTrips) {
  const char* inputs[] = {
      "{'signature': {'in_ptr0': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {}}",
      "[{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]",
      "DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, warp_size=32)",
      "{'autotune_hints': set(), 'no_x_dim': None, 'tiling_scores': {'x': 0, 'r0_': 2684354560}}",
      "('it\\'s', \"a\\nb\", 'tab\\tx', 'caf\\u00e9', -1.25, 1e+300, (ks0*8, -s1))",
      "[[[[1, (2,), {3}]]]]",
  };
  for (const char* input : inputs) {
    const std::string once = parsed(input).repr();
    const PyValue again = parsed(once);
    EXPECT_EQ(again.repr(), once) << input;
  }
  // The values survive, not only the text.
  const PyValue v = parsed(parsed("('it\\'s', \"a\\nb\", 'caf\\u00e9')").repr());
  ASSERT_EQ(v.items.size(), 3u);
  EXPECT_EQ(v.items[0].text, "it's");
  EXPECT_EQ(v.items[1].text, "a\nb");
  EXPECT_EQ(v.items[2].text, "caf\xc3\xa9");
}

TEST(PythonLiteral, ExpressionAtAnOffsetReportsWhereItEnds) {
  const std::string text = "x = [1, 2]  # trailing\ny = 3";
  auto p = parsePythonExpression(text, 4);
  ASSERT_TRUE(p.hasValue()) << p.error();
  EXPECT_EQ(p->value.kind, Kind::kList);
  EXPECT_EQ(p->value.items.size(), 2u);
  EXPECT_EQ(p->end, 10u);
  // What follows an expression is left alone by parsePythonExpression.
  auto first = parsePythonExpression("1 2");
  ASSERT_TRUE(first.hasValue());
  EXPECT_EQ(first->value.integer, 1);
  EXPECT_EQ(first->end, 1u);
  auto past = parsePythonExpression("abc", 4);
  ASSERT_FALSE(past.hasValue());
  EXPECT_NE(past.error().find("offset 4 is past the end"), std::string::npos);
  auto at_end = parsePythonExpression("abc", 3);
  ASSERT_FALSE(at_end.hasValue());
  EXPECT_NE(at_end.error().find("found the end of the text"), std::string::npos);
}

TEST(PythonLiteral, UnclosedStringsAreErrorsAtTheirQuote) {
  EXPECT_EQ(errorOf("'abc"), "line 1, column 1: a string opened here is not closed");
  EXPECT_EQ(errorOf("[1,\n 'abc\n]"), "line 2, column 2: a string opened here ends at the end of the line");
  EXPECT_EQ(errorOf("x('''abc'')"), "line 1, column 3: a string opened here is not closed");
}

TEST(PythonLiteral, UnclosedBracketsAreErrors) {
  EXPECT_EQ(errorOf("[1, 2"), "line 1, column 6: expected ',' or ']', found the end of the text");
  EXPECT_EQ(errorOf("(1, "), "line 1, column 5: expected ')', found the end of the text");
  EXPECT_EQ(errorOf("{"), "line 1, column 1: a '{' opened here is not closed");
  EXPECT_NE(errorOf("{'a': 1").find("expected ',' or '}' in a dict, found the end of the text"), std::string::npos);
  EXPECT_NE(errorOf("f(a=1").find("expected ',' or ')', found the end of the text"), std::string::npos);
  EXPECT_NE(errorOf("[").find("found the end of the text"), std::string::npos);
}

TEST(PythonLiteral, MissingCommaIsAnErrorNamingWhatWasFound) {
  // {'a': 1 'b': 2}: the second key's quote is the 9th character.
  EXPECT_EQ(errorOf("{'a': 1 'b': 2}"), "line 1, column 9: expected ',' or '}' in a dict, found '''");
  EXPECT_EQ(errorOf("{1 2}"), "line 1, column 4: expected ',' or '}' in a set, found '2'");
  EXPECT_EQ(errorOf("{'a': 1, 2}"), "line 1, column 11: expected ':' in a dict, found '}'");
  // "  2 3]" on line 2: the 3 is in column 5.
  EXPECT_EQ(errorOf("[1,\n  2 3]"), "line 2, column 5: expected ',' or ']', found '3'");
  EXPECT_EQ(errorOf("f(x=1 y=2)"), "line 1, column 7: expected ',' or ')', found 'y'");
}

TEST(PythonLiteral, TrailingTextIsAnErrorForALiteral) {
  EXPECT_EQ(errorOf("1 2"), "line 1, column 3: unexpected text after the value");
  EXPECT_EQ(errorOf("[1]]"), "line 1, column 4: unexpected text after the value");
  EXPECT_EQ(errorOf("{'a': 1}\n  x"), "line 2, column 3: unexpected text after the value");
  // Blanks and comments may follow.
  EXPECT_EQ(parsed("[1]  # done\n\n  # more\n").items.size(), 1u);
}

TEST(PythonLiteral, OtherSyntaxIsAnError) {
  EXPECT_EQ(errorOf(""), "line 1, column 1: expected a value, found the end of the text");
  EXPECT_EQ(errorOf("  # only a comment"), "line 1, column 19: expected a value, found the end of the text");
  EXPECT_EQ(errorOf("[1, @]"), "line 1, column 5: expected a value, found '@'");
  EXPECT_NE(errorOf("-'a'").find("a sign must be followed by a number or a name"), std::string::npos);
  EXPECT_NE(errorOf("s0 *").find("expected a value, found the end of the text"), std::string::npos);
}

TEST(PythonLiteral, NestingDeeperThanTheLimitIsAnErrorNotACrash) {
  // 64 levels parse; the 65th is refused.
  const std::string ok = std::string(kMaxPythonDepth, '[') + "1" + std::string(kMaxPythonDepth, ']');
  const PyValue v = parsed(ok);
  EXPECT_EQ(v.kind, Kind::kList);
  const std::string deep = std::string(kMaxPythonDepth + 1, '[') + "1" + std::string(kMaxPythonDepth + 1, ']');
  EXPECT_NE(errorOf(deep).find("nesting deeper than 64 levels"), std::string::npos);

  EXPECT_NE(errorOf(std::string(100, '[')).find("nesting deeper than 64 levels"), std::string::npos);
  EXPECT_NE(errorOf(std::string(100000, '(')).find("nesting deeper than 64 levels"), std::string::npos);
  EXPECT_NE(errorOf(std::string(100000, '{')).find("nesting deeper than 64 levels"), std::string::npos);
  EXPECT_NE(errorOf(std::string(100000, '-') + "1").find("nesting deeper than 64 levels"), std::string::npos);
  std::string calls;
  for (int i = 0; i < 1000; ++i) calls += "f(";
  EXPECT_NE(errorOf(calls).find("nesting deeper than 64 levels"), std::string::npos);
  std::string dicts;
  for (int i = 0; i < 1000; ++i) dicts += "{'a': ";
  EXPECT_NE(errorOf(dicts).find("nesting deeper than 64 levels"), std::string::npos);
  // The message says where: the 65th '[' is on line 1, column 66 (the value inside it).
  EXPECT_EQ(errorOf(std::string(100, '[')), "line 1, column 66: nesting deeper than 64 levels");
}
