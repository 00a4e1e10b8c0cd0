#include "core/base/format.h"

#include <algorithm>
#include <charconv>
#include <ctime>

namespace occx {

std::string num(std::int64_t value) {
  return std::to_string(value);
}

std::string fixed(double value, int digits) {
  // 310 integer digits (DBL_MAX), a sign, a point and 30 decimals fit.
  char buf[352];
  const auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, std::clamp(digits, 0, 30));
  return std::string(buf, r.ptr);
}

std::string utcTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace occx
