// Small text helpers for parsing user input (names of profiles, policies, gates, workloads) and
// for suggesting what the user may have meant.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace occx {

/// `text` with ASCII letters A–Z lowered to a–z; every other byte (UTF-8 included) unchanged,
/// whatever the process locale.
/// Used to parse names case-insensitively. Never fails.
std::string lowerAscii(std::string_view text);

/// `text` without the leading and trailing bytes that are in `chars` (default: ASCII whitespace).
/// Never fails.
std::string trimmed(std::string_view text, std::string_view chars = " \t\r\n\f\v");

/// The parts joined with `separator` between them ("" for none). Never fails.
std::string joined(const std::vector<std::string>& parts, std::string_view separator);

/// Levenshtein distance of two byte strings: the fewest one-byte insertions, deletions and
/// substitutions that turn `a` into `b`.
int editDistance(std::string_view a, std::string_view b);

}  // namespace occx
