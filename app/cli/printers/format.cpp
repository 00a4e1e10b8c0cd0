#include "app/cli/printers/format.h"

#include <iomanip>
#include <sstream>

namespace occx::cli {

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

}  // namespace occx::cli
