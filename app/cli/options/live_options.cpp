#include "app/cli/options/live_options.h"

#include <sstream>

#include "app/cli/cli.h"

namespace occx::cli {

void LiveSweepOptions::add(CLI::App& cmd) {
  cmd.add_option("--device", device, "live runs: CUDA device ordinal (default 0)");
  cmd.add_option("--seed", seed, "live runs: seed of the random inputs (default 1)");
  cmd.add_flag("--metrics,!--no-metrics", metrics,
               "live runs: after timing, profile one launch per config with CUPTI (achieved occupancy, DRAM "
               "bytes, local-memory traffic; on by default, --no-metrics skips it); columns say "
               "'unavailable: <reason>' where profiling is not permitted");
  cmd.add_flag("--refresh-bandwidth", refresh_bandwidth,
               "live runs: measure the copy bandwidth again (not the cached figure)");
  cmd.add_option("--repeat", repeat, "live runs: time the best config and each policy's pick N more times (0 … 100)");
  cmd.add_option("--timed-ms", timed_ms, "live runs: kernel time to aim at per config, ms (1 … 10000; default 40)");
  cmd.add_flag("--no-l2-flush", no_flush, "live runs: do not flush L2 between timed launches");
}

std::string LiveSweepOptions::rangeError() const {
  if (repeat < 0 || repeat > 100) return outOfRange("--repeat", repeat, "0 … 100");
  if (!(timed_ms >= 1.0 && timed_ms <= 10000.0)) {
    std::ostringstream s;
    s << "--timed-ms " << timed_ms << " is out of range: allowed 1 … 10000";
    return s.str();
  }
  return {};
}

}  // namespace occx::cli
