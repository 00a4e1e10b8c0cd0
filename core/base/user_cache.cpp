#include "core/base/user_cache.h"

#include <cstdlib>

namespace occx {

std::string userCacheDirectory() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/occupancy-explorer";
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] != '\0') return std::string(home) + "/.cache/occupancy-explorer";
  return {};
}

}  // namespace occx
