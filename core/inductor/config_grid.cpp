#include "core/inductor/config_grid.h"

#include <algorithm>

namespace occx::inductor {
namespace {

std::string joinInts(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

/// "1,2,4" or "256..4096" when the values are the consecutive powers of two between.
std::string axisText(const std::vector<int>& v) {
  if (v.size() >= 3 && v == powersOfTwo(v.front(), v.back()))
    return std::to_string(v.front()) + ".." + std::to_string(v.back());
  return joinInts(v);
}

}  // namespace

std::vector<int> powersOfTwo(int from, int to) {
  std::vector<int> v;
  for (int p = from; p <= to && p > 0; p *= 2) {
    v.push_back(p);
    if (p > to / 2) break;  // p * 2 would overflow past `to`
  }
  return v;
}

std::string ConfigGrid::text() const {
  std::string s = "XBLOCK=" + axisText(xblock);
  if (!r0_block.empty()) s += " R0_BLOCK=" + axisText(r0_block);
  s += " num_warps=" + axisText(num_warps) + " num_stages=" + joinInts(num_stages);
  return s;
}

std::size_t ConfigGrid::size() const {
  return xblock.size() * std::max<std::size_t>(1, r0_block.size()) * num_warps.size() *
         std::max<std::size_t>(1, num_stages.size());
}

}  // namespace occx::inductor
