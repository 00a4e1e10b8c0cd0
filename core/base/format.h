// Number formatting for every text the engine writes (derivations, decision reasons, CSV and JSON
// cells): one way to print an integer and one way to print a fixed-point decimal, the same in the
// CLI and the GUI whatever the process's locale.
#pragma once

#include <cstdint>
#include <string>

namespace occx {

/// Decimal text of an integer, as std::to_string gives it: num(65536) == "65536", num(-3) == "-3";
/// no digit grouping. Never fails.
std::string num(std::int64_t value);

/// `value` with exactly `digits` decimals (0 … 30; outside that range clamped), correctly rounded
/// from the binary value, as printf's "%.*f" prints it in the C locale: fixed(2.0 / 3, 2) ==
/// "0.67", fixed(99.96, 1) == "100.0", fixed(-0.001, 2) == "-0.00"; "inf", "-inf", "nan" for
/// non-finite values. The decimal point is always '.', whatever the locale. Never fails.
std::string fixed(double value, int digits);

/// The current time as "YYYY-MM-DDTHH:MM:SSZ" (UTC, from the system clock): the date stamps of the
/// files and caches the program writes.
std::string utcTimestamp();

}  // namespace occx
