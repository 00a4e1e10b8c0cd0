// The number formatting every engine text uses (core/base/format.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "core/base/format.h"

using namespace occx;

TEST(Format, IntegersAsToString) {
  EXPECT_EQ(num(0), "0");
  EXPECT_EQ(num(65536), "65536");
  EXPECT_EQ(num(-3), "-3");
  EXPECT_EQ(num(std::numeric_limits<std::int64_t>::max()), "9223372036854775807");
}

TEST(Format, FixedRoundsLikePrintf) {
  EXPECT_EQ(fixed(2.0 / 3, 2), "0.67");
  EXPECT_EQ(fixed(99.96, 1), "100.0");
  EXPECT_EQ(fixed(-0.001, 2), "-0.00");
  EXPECT_EQ(fixed(1383.4, 0), "1383");
  EXPECT_EQ(fixed(0.5, 0), "0");  // ties to even, as printf
  EXPECT_EQ(fixed(12.5, 3), "12.500");
  for (double v : {0.0, 1e-9, 0.125, 3.14159, 684.0, 1e12, -42.4242}) {
    for (int d = 0; d <= 6; ++d) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*f", d, v);
      EXPECT_EQ(fixed(v, d), buf) << v << " with " << d << " decimals";
    }
  }
}

TEST(Format, FixedNonFinite) {
  EXPECT_EQ(fixed(std::numeric_limits<double>::infinity(), 2), "inf");
  EXPECT_EQ(fixed(-std::numeric_limits<double>::infinity(), 1), "-inf");
  EXPECT_EQ(fixed(std::nan(""), 2), "nan");
}
