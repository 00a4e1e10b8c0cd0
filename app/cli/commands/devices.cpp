// occx devices: the GPUs the driver sees, matched to the GPU data, with their measured copy
// bandwidth. (The first of them is the default device of every other command: defaultGpuName.)
//
// Exit codes: 0 when the query worked, also when it finds no GPU or no driver (the answer is then
// "none", said plainly, and everything that needs no GPU still works); 1 when a GPU is present but
// a query or the bandwidth measurement fails; 2 for bad arguments.
#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/options/output_options.h"
#include "app/cli/printers/format.h"
#include "app/cli/printers/printer.h"
#include "core/sweep/compile_sweep.h"

namespace occx::cli {
namespace {

constexpr const char* kDevicesCmd = "occx devices";

struct DevicesOpts {
  OutputOptions output;
  bool no_bandwidth = false;
  bool refresh = false;
};

// The columns of the device table (--csv), with or without devices.
std::vector<std::string> deviceCsvHeader() {
  return {"ordinal",
          "name",
          "uuid",
          "cc",
          "sm_count",
          "registers_per_sm",
          "max_threads_per_sm",
          "max_blocks_per_sm",
          "shared_memory_per_sm_bytes",
          "shared_memory_per_block_optin_bytes",
          "l2_bytes",
          "memory_bytes",
          "memory_clock_khz",
          "memory_bus_bits",
          "theoretical_bandwidth_GBps",
          "copy_bandwidth_GBps",
          "copy_bandwidth_measured_at",
          "gpu_data_match",
          "gpu_data_mismatches"};
}

// No GPU to list: the answer is "none" (exit 0). `text` is the text report; JSON gives the reason;
// --csv writes the table with no rows and the reason as metadata.
int printNoGpus(Context& ctx, const DevicesOpts& o, const std::string& reason, const std::string& text) {
  if (o.output.json) {
    printJson(ctx.out, {{"devices", nlohmann::json::array()}, {"reason", reason}});
  } else if (o.output.text()) {
    ctx.out << text;
  }
  if (!o.output.csv.empty()) {
    CsvTable none;
    none.meta = {{"reason", reason}};
    none.header = deviceCsvHeader();
    return writeCsv(ctx, o.output.csv, none);
  }
  return kExitOk;
}

// One device's copy bandwidth, as the three outputs show it.
struct CopyFigure {
  double GBps = 0.0;  ///< 0: not measured, or the measurement failed
  std::string text = "not measured";
  std::string measured_at;
  bool failed = false;
};

CopyFigure copyFigure(Context& ctx, const DevicesOpts& o, int ordinal) {
  CopyFigure c;
  if (o.no_bandwidth) return c;
  auto runner = ctx.backend.startGpuRunner(ordinal);
  Expected<CopyBandwidth> bw =
      runner ? (*runner)->copyBandwidth(o.refresh) : Expected<CopyBandwidth>(Error{runner.error()});
  if (!bw) {
    c.text = "failed";
    c.failed = true;
    ctx.err << kDevicesCmd << ": device " << ordinal << ": copy bandwidth: " << bw.error() << "\n";
    return c;
  }
  c.GBps = bw->GBps;
  c.text = fixed(bw->GBps, 0) + (bw->from_cache ? " (cached)" : "");
  c.measured_at = bw->measured_at;
  return c;
}

std::vector<std::string> textRow(const DeviceInfo& d, const CopyFigure& c) {
  const double theo = d.theoreticalBandwidthGBps();
  return {std::to_string(d.ordinal),
          d.name,
          d.cc.str(),
          std::to_string(d.sm_count),
          std::to_string(d.registers_per_sm),
          std::to_string(d.max_threads_per_sm),
          fixed(static_cast<double>(d.l2_bytes) / (1 << 20), 0),
          fixed(static_cast<double>(d.total_memory_bytes) / (1 << 30), 1),
          std::to_string(d.memory_bus_bits),
          theo > 0 ? fixed(theo, 0) : "unknown",
          c.text,
          c.GBps > 0 && theo > 0 ? fixed(c.GBps / theo * 100.0, 1) : "",
          d.matched_gpu.empty() ? "(no match)" : d.matched_gpu};
}

CsvTable csvTable(const std::vector<DeviceInfo>& devices) {
  CsvTable csv;
  csv.meta = {{"driver_cuda_version", devices.front().driverCudaVersion()}, {"date_utc", utcTimestamp()}};
  csv.header = deviceCsvHeader();
  return csv;
}

std::vector<std::string> csvRow(const DeviceInfo& d, const CopyFigure& c) {
  return {std::to_string(d.ordinal),
          d.name,
          d.uuid,
          d.cc.str(),
          std::to_string(d.sm_count),
          std::to_string(d.registers_per_sm),
          std::to_string(d.max_threads_per_sm),
          std::to_string(d.max_blocks_per_sm),
          std::to_string(d.shared_memory_per_sm),
          std::to_string(d.shared_memory_per_block_optin),
          std::to_string(d.l2_bytes),
          std::to_string(d.total_memory_bytes),
          std::to_string(d.memory_clock_khz),
          std::to_string(d.memory_bus_bits),
          fixed(d.theoreticalBandwidthGBps(), 1),
          c.GBps > 0 ? fixed(c.GBps, 1) : "",
          c.measured_at,
          d.matched_gpu,
          joined(d.data_mismatches, "; ")};
}

nlohmann::json jsonDevice(const DeviceInfo& d, const CopyFigure& c) {
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
                       {"theoretical_bandwidth_GBps", d.theoreticalBandwidthGBps()},
                       {"driver_cuda_version", d.driverCudaVersion()},
                       {"gpu_data_match", d.matched_gpu},
                       {"gpu_data_mismatches", d.data_mismatches}};
  if (c.GBps > 0) {
    jd["copy_bandwidth_GBps"] = c.GBps;
    jd["copy_bandwidth_measured_at"] = c.measured_at;
  }
  return jd;
}

int listDevices(Context& ctx, const DevicesOpts& o, const std::vector<DeviceInfo>& devices) {
  int exit_code = kExitOk;
  TextRows table = {{"#", "name", "CC", "SMs", "regs/SM", "threads/SM", "L2 MiB", "memory GiB", "bus bits",
                     "theoretical GB/s", "copy GB/s", "% of theoretical", "GPU data"}};
  CsvTable csv = csvTable(devices);
  nlohmann::json j = {{"devices", nlohmann::json::array()}};
  for (const auto& d : devices) {
    const CopyFigure copy = copyFigure(ctx, o, d.ordinal);
    if (copy.failed) exit_code = kExitRuntime;
    table.push_back(textRow(d, copy));
    csv.rows.push_back(csvRow(d, copy));
    j["devices"].push_back(jsonDevice(d, copy));
    if (!o.output.json && !d.data_mismatches.empty()) {
      ctx.err << kDevicesCmd << ": device " << d.ordinal << " differs from the GPU data (" << d.matched_gpu
              << "): " << joined(d.data_mismatches, "; ") << "\n";
    }
  }
  if (o.output.json) {
    printJson(ctx.out, j);
  } else if (o.output.text()) {
    printTable(ctx.out, table);
  }
  if (!o.output.csv.empty()) {
    if (int rc = writeCsv(ctx, o.output.csv, csv); rc != kExitOk) return rc;
  }
  return exit_code;
}

int runDevices(Context& ctx, const DevicesOpts& o) {
  const Availability live = ctx.backend.liveAvailability();
  const auto devices = ctx.backend.detectedGpus();
  if (!live.available || devices.empty()) {
    const std::string reason = reasonClause(!live.available ? live.reason : "the NVIDIA driver reports no CUDA GPU");
    return printNoGpus(ctx, o, reason,
                       "No GPUs detected: " + reason +
                           ".\nEverything that needs no GPU still works: occupancy, rblock, compile, sweep --no-run, "
                           "and the recorded datasets.\n");
  }
  return listDevices(ctx, o, devices);
}

void addDevicesCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<DevicesOpts>();
  auto* cmd =
      app.add_subcommand("devices",
                         "detected GPUs (driver API), matched to the GPU data, with their measured copy bandwidth "
                         "(cached per device). With no driver or no GPU it says so and exits 0");
  o->output.add(*cmd, "print JSON instead of text", "also write the table to this CSV file");
  cmd->add_flag("--no-bandwidth", o->no_bandwidth, "do not measure (or read the cached) copy bandwidth");
  cmd->add_flag("--refresh", o->refresh, "measure the copy bandwidth again instead of using the cached figure");
  setAction(*cmd, ctx, o, &runDevices);
}

const CommandRegistrar kRegistrar{{"devices", 5, &addDevicesCommand}};

}  // namespace
}  // namespace occx::cli
