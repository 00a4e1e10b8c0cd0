// The engine's strings (UTF-8 std::string) as Qt's, for every UI layer.
#pragma once

#include <QString>
#include <string>
#include <string_view>

namespace occx::ui {

/// `s` (UTF-8) as a QString.
inline QString q(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
/// `s` (UTF-8) as a QString (std::string is not converted to string_view implicitly in overload sets).
inline QString q(const std::string& s) {
  return QString::fromStdString(s);
}
/// `s` (a UTF-8 literal) as a QString.
inline QString q(const char* s) {
  return QString::fromUtf8(s);
}

}  // namespace occx::ui
