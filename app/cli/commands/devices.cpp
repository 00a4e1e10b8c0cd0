// occx devices: the GPUs the driver sees, matched to the GPU data, with their measured copy
// bandwidth. Also makes the first detected GPU the default device of every other command.
//
// Exit codes: 0 when the query worked, also when it finds no GPU or no driver (the answer is then
// "none", said plainly, and everything that needs no GPU still works); 1 when a GPU is present but
// a query or the bandwidth measurement fails; 2 for bad arguments.
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "core/sweep/compile_sweep.h"
#include "occx_config.h"

#if OCCX_HAVE_CUDA
#include "core/cuda/device.h"
#include "core/cuda/driver_api.h"
#include "core/cuda/gpu_session.h"
#endif

namespace occx::cli {
namespace {

#if OCCX_HAVE_CUDA
// The detected GPU becomes the default of --gpu (asked only when a command needs a default).
const bool kDefaultGpuProvider = [] {
  setDefaultGpuNameProvider([] { return cuda::detectedGpuName(); });
  return true;
}();
#endif

void addDevicesCommand(CLI::App& app, Context& ctx) {
  struct Opts {
    bool json = false;
    std::string csv;
    bool no_bandwidth = false;
    bool refresh = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand(
      "devices",
      "detected GPUs (driver API), matched to the GPU data, with their measured copy bandwidth "
      "(cached per device). With no driver or no GPU it says so and exits 0");
  cmd->add_flag("--json", o->json, "print JSON instead of text");
  cmd->add_option("--csv", o->csv, "also write the table to this CSV file");
  cmd->add_flag("--no-bandwidth", o->no_bandwidth, "do not measure (or read the cached) copy bandwidth");
  cmd->add_flag("--refresh", o->refresh, "measure the copy bandwidth again instead of using the cached figure");
  cmd->callback([&ctx, o] {
    ctx.action = [&ctx, o]() -> int {
      nlohmann::json j;
      j["devices"] = nlohmann::json::array();
#if !OCCX_HAVE_CUDA
      const std::string reason = "this build has no CUDA support (the CUDA Toolkit was not found when it was built)";
      if (o->json) {
        j["reason"] = reason;
        ctx.out << j.dump(2) << "\n";
      } else {
        ctx.out << "No GPUs: " << reason << ".\n";
      }
      return kExitOk;
#else
      const auto status = cuda::driverStatus();
      auto devices = status.available ? cuda::queryDevices() : Expected<std::vector<DeviceInfo>>(Error{status.reason});
      if (!devices || devices->empty()) {
        const std::string reason = !devices ? devices.error() : "the NVIDIA driver reports no CUDA GPU";
        if (o->json) {
          j["reason"] = reason;
          ctx.out << j.dump(2) << "\n";
        } else {
          ctx.out << "No GPUs detected: " << reason << ".\n"
                  << "Everything that needs no GPU still works: occupancy, rblock, compile, sweep --no-run, "
                     "and the recorded datasets.\n";
        }
        return kExitOk;
      }
      int exit_code = kExitOk;
      std::vector<std::vector<std::string>> table = {{"#", "name", "CC", "SMs", "regs/SM", "threads/SM", "L2 MiB",
                                                      "memory GiB", "bus bits", "theoretical GB/s", "copy GB/s",
                                                      "% of theoretical", "GPU data"}};
      CsvTable csv;
      csv.meta = {{"driver_cuda_version", devices->front().driverCudaVersion()}, {"date_utc", utcTimestamp()}};
      csv.header = {"ordinal", "name", "uuid", "cc", "sm_count", "registers_per_sm", "max_threads_per_sm",
                    "max_blocks_per_sm", "shared_memory_per_sm_bytes", "shared_memory_per_block_optin_bytes",
                    "l2_bytes", "memory_bytes", "memory_clock_khz", "memory_bus_bits", "theoretical_bandwidth_GBps",
                    "copy_bandwidth_GBps", "copy_bandwidth_measured_at", "gpu_data_match", "gpu_data_mismatches"};
      for (const auto& d : *devices) {
        std::string copy_text = "not measured";
        std::string measured_at;
        double copy_GBps = 0.0;
        if (!o->no_bandwidth) {
          auto session = cuda::GpuSession::open(d.ordinal);
          Expected<CopyBandwidth> bw = session ? (*session)->copyBandwidth(o->refresh)
                                                     : Expected<CopyBandwidth>(Error{session.error()});
          if (bw) {
            copy_GBps = bw->GBps;
            copy_text = fixed(bw->GBps, 0) + (bw->from_cache ? " (cached)" : "");
            measured_at = bw->measured_at;
          } else {
            copy_text = "failed";
            ctx.err << "occx devices: device " << d.ordinal << ": copy bandwidth: " << bw.error() << "\n";
            exit_code = kExitRuntime;
          }
        }
        const double theo = d.theoreticalBandwidthGBps();
        std::string mismatches;
        for (const auto& m : d.data_mismatches) mismatches += (mismatches.empty() ? "" : "; ") + m;
        table.push_back({std::to_string(d.ordinal), d.name, d.cc.str(), std::to_string(d.sm_count),
                         std::to_string(d.registers_per_sm), std::to_string(d.max_threads_per_sm),
                         fixed(static_cast<double>(d.l2_bytes) / (1 << 20), 0),
                         fixed(static_cast<double>(d.total_memory_bytes) / (1 << 30), 1), std::to_string(d.memory_bus_bits),
                         theo > 0 ? fixed(theo, 0) : "unknown", copy_text,
                         copy_GBps > 0 && theo > 0 ? fixed(copy_GBps / theo * 100.0, 1) : "",
                         d.matched_gpu.empty() ? "(no match)" : d.matched_gpu});
        csv.rows.push_back({std::to_string(d.ordinal), d.name, d.uuid, d.cc.str(), std::to_string(d.sm_count),
                            std::to_string(d.registers_per_sm), std::to_string(d.max_threads_per_sm),
                            std::to_string(d.max_blocks_per_sm), std::to_string(d.shared_memory_per_sm),
                            std::to_string(d.shared_memory_per_block_optin), std::to_string(d.l2_bytes),
                            std::to_string(d.total_memory_bytes), std::to_string(d.memory_clock_khz),
                            std::to_string(d.memory_bus_bits), fixed(theo, 1),
                            copy_GBps > 0 ? fixed(copy_GBps, 1) : "", measured_at, d.matched_gpu, mismatches});
        nlohmann::json jd = {{"ordinal", d.ordinal},
                             {"name", d.name},
                             {"uuid", d.uuid},
                             {"cc", d.cc.str()},
                             {"sm_count", d.sm_count},
                             {"registers_per_sm", d.registers_per_sm},
                             {"registers_per_block", d.registers_per_block},
                             {"max_threads_per_sm", d.max_threads_per_sm},
                             {"max_threads_per_block", d.max_threads_per_block},
                             {"max_blocks_per_sm", d.max_blocks_per_sm},
                             {"warp_size", d.warp_size},
                             {"shared_memory_per_sm_bytes", d.shared_memory_per_sm},
                             {"shared_memory_per_block_bytes", d.shared_memory_per_block},
                             {"shared_memory_per_block_optin_bytes", d.shared_memory_per_block_optin},
                             {"reserved_shared_memory_per_block_bytes", d.reserved_shared_memory_per_block},
                             {"l2_bytes", d.l2_bytes},
                             {"memory_bytes", d.total_memory_bytes},
                             {"memory_clock_khz", d.memory_clock_khz},
                             {"memory_bus_bits", d.memory_bus_bits},
                             {"theoretical_bandwidth_GBps", theo},
                             {"driver_cuda_version", d.driverCudaVersion()},
                             {"gpu_data_match", d.matched_gpu},
                             {"gpu_data_mismatches", d.data_mismatches}};
        if (copy_GBps > 0) {
          jd["copy_bandwidth_GBps"] = copy_GBps;
          jd["copy_bandwidth_measured_at"] = measured_at;
        }
        j["devices"].push_back(jd);
        if (!o->json && !d.data_mismatches.empty()) {
          ctx.err << "occx devices: device " << d.ordinal << " differs from the GPU data (" << d.matched_gpu
                  << "): " << mismatches << "\n";
        }
      }
      if (o->json) {
        ctx.out << j.dump(2) << "\n";
      } else {
        printTable(ctx.out, table);
      }
      if (!o->csv.empty()) {
        if (int rc = writeCsv(ctx, o->csv, csv); rc != kExitOk) return rc;
      }
      return exit_code;
#endif
    };
  });
}

const CommandRegistrar kRegistrar{{"devices", 5, &addDevicesCommand}};

}  // namespace
}  // namespace occx::cli
