// A value or an error message: how errors cross the core API. Errors are values at every boundary,
// never exceptions or crashes, so one failing config becomes a row with its reason.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace occx {

/// An error carried as a value: a human-readable message that names the offending value and the
/// allowed range, e.g. "--threads 2000 is out of range: allowed 1 … 1024".
struct Error {
  Error() = default;
  explicit Error(std::string text, bool is_cancellation = false)
      : message(std::move(text)), cancelled(is_cancellation) {}

  std::string message;
  /// True when the work was stopped by the caller's cancel flag rather than failing: not an error
  /// to report, a state to show ("cancelled").
  bool cancelled = false;

  /// The value every cancelled operation returns: message "cancelled", cancelled = true.
  static Error cancellation() { return Error{"cancelled", true}; }
};

/// Holds either a T or an Error. Never throws on construction; value() on an error is a logic
/// error of the caller (checked with hasValue()).
template <class T>
class Expected {
 public:
  Expected(T value) : data_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Expected(Error error) : data_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool hasValue() const { return std::holds_alternative<T>(data_); }
  explicit operator bool() const { return hasValue(); }
  [[nodiscard]] const T& value() const& { return std::get<T>(data_); }
  [[nodiscard]] T& value() & { return std::get<T>(data_); }
  [[nodiscard]] T&& value() && { return std::get<T>(std::move(data_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  /// True when an error is held and it is a cancellation (Error::cancellation()).
  [[nodiscard]] bool cancelled() const { return !hasValue() && std::get<Error>(data_).cancelled; }
  /// The error message; empty when a value is held.
  [[nodiscard]] const std::string& error() const {
    static const std::string kNone;
    return hasValue() ? kNone : std::get<Error>(data_).message;
  }

 private:
  std::variant<T, Error> data_;
};

}  // namespace occx
