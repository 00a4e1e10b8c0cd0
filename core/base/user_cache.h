// The per-user cache folder of the program (compile cache, measured copy bandwidth).
#pragma once

#include <string>

namespace occx {

/// $XDG_CACHE_HOME/occupancy-explorer when XDG_CACHE_HOME is set and absolute, else
/// $HOME/.cache/occupancy-explorer; empty when neither is known. The folder is not created.
std::string userCacheDirectory();

}  // namespace occx
