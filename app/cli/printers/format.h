// Number and list formatting shared by the printers and the commands' text reports.
#pragma once

#include <concepts>
#include <string>
#include <string_view>

#include "core/base/format.h"

namespace occx::cli {

/// The engine's decimal formatter (core/base/format.h), so the CLI prints numbers as the GUI does.
using occx::fixed;

/// The texts of `items` (as `text(item)` gives them) with `sep` between them; an item that follows
/// empty text gets no separator.
template <typename Range, typename Text>
std::string joined(const Range& items, std::string_view sep, Text&& text) {
  std::string s;
  for (const auto& item : items) {
    if (!s.empty()) s += sep;
    s += text(item);
  }
  return s;
}

/// The same for items that are text already.
template <typename Range>
requires std::convertible_to<typename Range::value_type, std::string_view> std::string joined(const Range& items,
                                                                                              std::string_view sep) {
  return joined(
      items, sep, [](const auto& item) -> const auto& { return item; });
}

}  // namespace occx::cli
