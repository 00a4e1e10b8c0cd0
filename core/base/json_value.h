// Integers read from JSON written outside this process (caches, the compile helper's and the GPU
// worker's messages) without nlohmann's silent conversions: its value<int>() turns a fraction into
// an integer and a floating-point number beyond the type's range into undefined behaviour
// (`{"runs": 1e30}`), and wraps an integer beyond the range.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace occx {

/// The integer at `key` of the object `j`: `fallback` when `j` has no such key (or is not an object),
/// the value when it is a JSON integer within T's range, nullopt otherwise (a fraction, a float, an
/// integer beyond T's range, another type). T: any integer type up to 64 bits.
template <class T>
std::optional<T> integerValue(const nlohmann::json& j, std::string_view key, T fallback) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
  if (!j.is_object()) return fallback;
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (it->is_number_unsigned()) {
    const auto u = it->template get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return std::nullopt;
    return static_cast<T>(u);
  }
  if (!it->is_number_integer()) return std::nullopt;
  const auto i = it->template get<std::int64_t>();
  if constexpr (std::is_signed_v<T>) {
    if (i < std::int64_t{std::numeric_limits<T>::min()} || i > std::int64_t{std::numeric_limits<T>::max()})
      return std::nullopt;
  } else {
    if (i < 0 || static_cast<std::uint64_t>(i) > std::uint64_t{std::numeric_limits<T>::max()}) return std::nullopt;
  }
  return static_cast<T>(i);
}

}  // namespace occx
