// Small file and text helpers the engine tests share: a whole file as text, a file written from
// text, a text's lines, and "does any line contain this".
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace occx::testing_support {

/// The bytes of `p` as a string (empty when it cannot be read).
inline std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Replaces `p`'s contents with `text` (binary, no newline translation).
inline void writeText(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

/// `text` split at '\n' (the newline dropped; a final line without one kept).
inline std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

/// Whether any string of `list` contains `part`.
inline bool anyContains(const std::vector<std::string>& list, const std::string& part) {
  for (const auto& s : list) {
    if (s.find(part) != std::string::npos) return true;
  }
  return false;
}

}  // namespace occx::testing_support
