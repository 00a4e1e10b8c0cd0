// integerValue (core/base/json_value.h): integers from outside JSON without nlohmann's silent
// conversions — a float beyond the range (undefined behaviour in value<int>()), a fraction, an
// integer beyond the type's range and other types are refused; an absent key gives the fallback.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/base/json_value.h"

namespace occx {
namespace {

TEST(JsonIntegerValue, IntegersInRangeAbsentKeysAndEverythingElse) {
  const auto j = nlohmann::json::parse(R"({"runs": 21, "neg": -3, "big": 4294967296, "u64": 18446744073709551615,
      "huge": 107374118446744073709551615824, "frac": 2.5, "text": "21", "flag": true})");
  EXPECT_EQ(integerValue(j, "runs", 0), std::optional<int>(21));
  EXPECT_EQ(integerValue(j, "neg", 0), std::optional<int>(-3));
  EXPECT_EQ(integerValue(j, "absent", 7), std::optional<int>(7));
  EXPECT_EQ(integerValue(j, "big", 0), std::nullopt);  // beyond int
  EXPECT_EQ(integerValue(j, "big", std::int64_t{0}), std::optional<std::int64_t>(4294967296));
  EXPECT_EQ(integerValue(j, "u64", std::int64_t{0}), std::nullopt);
  EXPECT_EQ(integerValue(j, "u64", std::uint64_t{0}), std::optional<std::uint64_t>(18446744073709551615ULL));
  EXPECT_EQ(integerValue(j, "neg", std::uint64_t{0}), std::nullopt);
  EXPECT_TRUE(j["huge"].is_number_float());  // beyond 2^64: nlohmann reads a float
  EXPECT_EQ(integerValue(j, "huge", std::int64_t{0}), std::nullopt);
  EXPECT_EQ(integerValue(j, "frac", 0), std::nullopt);
  EXPECT_EQ(integerValue(j, "text", 0), std::nullopt);
  EXPECT_EQ(integerValue(j, "flag", 0), std::nullopt);
  EXPECT_EQ(integerValue(nlohmann::json::array({1}), "runs", 5), std::optional<int>(5));  // not an object
}

}  // namespace
}  // namespace occx
