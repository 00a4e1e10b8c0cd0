// Small text helpers for parsing user input (names of profiles, policies, gates, workloads).
#pragma once

#include <string>
#include <string_view>

namespace occx {

/// `text` with ASCII letters A–Z lowered to a–z; every other byte (UTF-8 included) unchanged,
/// whatever the process locale.
/// Used to parse names case-insensitively. Never fails.
std::string lowerAscii(std::string_view text);

}  // namespace occx
