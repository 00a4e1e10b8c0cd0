#include "core/sweep/worker_protocol.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/base/json_value.h"

namespace occx {

using nlohmann::json;

namespace {

/// An integer of type T from `v`, refusing what does not fit: a number out of T's range, a
/// fraction, infinity or NaN (a plain conversion of those would be undefined behaviour).
template <class T>
T checkedInteger(const json& v, const char* key) {
  auto refuse = [&]() -> T {
    throw json::other_error::create(501, std::string(key) + ": " + v.dump() + " is not an integer in range", &v);
  };
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    return std::in_range<T>(u) ? static_cast<T>(u) : refuse();
  }
  if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    return std::in_range<T>(i) ? static_cast<T>(i) : refuse();
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!std::isfinite(d) || d != std::trunc(d) || d < -9.2e18 || d > 9.2e18) return refuse();
    const auto i = static_cast<std::int64_t>(d);
    return std::in_range<T>(i) ? static_cast<T>(i) : refuse();
  }
  throw json::type_error::create(302, std::string(key) + " must be a number, not " + v.type_name(), &v);
}

/// Reads `key` into `out` when present; a missing key keeps the default (older or newer peers).
template <class T>
void getIf(const json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    out = checkedInteger<T>(*it, key);
  } else {
    it->get_to(out);
  }
}

/// Writes the fields `visit` names (visit(v, f) calls f(key, field) for each) as one object.
template <class V, class Visit>
void writeFields(json& j, const V& v, Visit visit) {
  j = json::object();
  visit(v, [&j](const char* key, const auto& field) { j[key] = field; });
}

/// Reads the fields `visit` names; a missing key keeps the field's default.
template <class V, class Visit>
void readFields(const json& j, V& v, Visit visit) {
  visit(v, [&j](const char* key, auto& field) { getIf(j, key, field); });
}

template <class E, class Parse>
E parsedEnum(const json& j, const char* key, E fallback, Parse parse) {
  auto it = j.find(key);
  if (it == j.end()) return fallback;
  auto e = parse(it->get<std::string>());
  if (!e) throw json::other_error::create(501, std::string(key) + ": " + e.error(), &j);
  return *e;
}

}  // namespace

void to_json(json& j, const ComputeCapability& v) {
  j = v.str();
}
void from_json(const json& j, ComputeCapability& v) {
  auto cc = ComputeCapability::parse(j.get<std::string>());
  if (!cc) throw json::other_error::create(501, "compute capability: " + cc.error(), &j);
  v = *cc;
}

/// Every field of a DeviceInfo by its key, for both directions.
template <class V, class F>
void deviceInfoFields(V& v, F&& f) {
  f("ordinal", v.ordinal);
  f("name", v.name);
  f("uuid", v.uuid);
  f("cc", v.cc);
  f("sm_count", v.sm_count);
  f("registers_per_sm", v.registers_per_sm);
  f("registers_per_block", v.registers_per_block);
  f("max_threads_per_sm", v.max_threads_per_sm);
  f("max_threads_per_block", v.max_threads_per_block);
  f("max_blocks_per_sm", v.max_blocks_per_sm);
  f("warp_size", v.warp_size);
  f("shared_memory_per_sm", v.shared_memory_per_sm);
  f("shared_memory_per_block", v.shared_memory_per_block);
  f("shared_memory_per_block_optin", v.shared_memory_per_block_optin);
  f("reserved_shared_memory_per_block", v.reserved_shared_memory_per_block);
  f("l2_bytes", v.l2_bytes);
  f("total_memory_bytes", v.total_memory_bytes);
  f("memory_clock_khz", v.memory_clock_khz);
  f("memory_bus_bits", v.memory_bus_bits);
  f("sm_clock_khz", v.sm_clock_khz);
  f("driver_version", v.driver_version);
  f("matched_gpu", v.matched_gpu);
  f("data_mismatches", v.data_mismatches);
}
void to_json(json& j, const DeviceInfo& v) {
  writeFields(j, v, [](const auto& x, auto&& f) { deviceInfoFields(x, f); });
}
void from_json(const json& j, DeviceInfo& v) {
  readFields(j, v, [](auto& x, auto&& f) { deviceInfoFields(x, f); });
}

/// Every field of a CopyBandwidth by its key, for both directions.
template <class V, class F>
void copyBandwidthFields(V& v, F&& f) {
  f("GBps", v.GBps);
  f("median_us", v.median_us);
  f("min_us", v.min_us);
  f("max_us", v.max_us);
  f("bytes_per_copy", v.bytes_per_copy);
  f("runs", v.runs);
  f("device_name", v.device_name);
  f("uuid", v.uuid);
  f("driver_version", v.driver_version);
  f("measured_at", v.measured_at);
  f("from_cache", v.from_cache);
}
void to_json(json& j, const CopyBandwidth& v) {
  writeFields(j, v, [](const auto& x, auto&& f) { copyBandwidthFields(x, f); });
}
void from_json(const json& j, CopyBandwidth& v) {
  readFields(j, v, [](auto& x, auto&& f) { copyBandwidthFields(x, f); });
}

void to_json(json& j, const ProblemSpec& v) {
  j = {{"workload", std::string(workloadName(v.workload))},
       {"dtype", std::string(dtypeName(v.dtype))},
       {"k", v.k},
       {"xnumel", v.xnumel},
       {"rnumel", v.rnumel},
       {"seed", v.seed},
       {"fp32_outputs", v.fp32_outputs}};
}
void from_json(const json& j, ProblemSpec& v) {
  v.workload = parsedEnum(j, "workload", v.workload, parseWorkload);
  v.dtype = parsedEnum(j, "dtype", v.dtype, parseDType);
  getIf(j, "k", v.k);
  getIf(j, "xnumel", v.xnumel);
  getIf(j, "rnumel", v.rnumel);
  getIf(j, "seed", v.seed);
  getIf(j, "fp32_outputs", v.fp32_outputs);
}

void to_json(json& j, const BufferSpec& v) {
  j = {{"name", v.name},
       {"type", std::string(elementTypeName(v.type))},
       {"elements", v.elements},
       {"role", std::string(bufferRoleName(v.role))}};
  if (v.values) {
    json values = {{"low", v.values->low},
                   {"high", v.values->high},
                   {"ignore_fraction", v.values->ignore_fraction},
                   {"origin", v.values->origin}};
    if (v.values->ignore) values["ignore"] = *v.values->ignore;
    j["values"] = std::move(values);
  }
}
void from_json(const json& j, BufferSpec& v) {
  getIf(j, "name", v.name);
  const json& type = j.at("type");
  if (!type.is_string())
    throw json::type_error::create(302, "type must be a string, not " + std::string(type.type_name()), &j);
  auto t = parseElementType(type.get<std::string>());
  if (!t) throw json::other_error::create(501, "type: " + t.error(), &j);
  v.type = *t;
  v.elements = checkedInteger<std::int64_t>(j.at("elements"), "elements");
  const json& role = j.at("role");
  if (!role.is_string())
    throw json::type_error::create(302, "role must be a string, not " + std::string(role.type_name()), &j);
  const std::string r = role.get<std::string>();
  bool known = false;
  for (auto candidate : {BufferSpec::Role::kInput, BufferSpec::Role::kOutput, BufferSpec::Role::kInOut}) {
    if (bufferRoleName(candidate) == r) {
      v.role = candidate;
      known = true;
    }
  }
  if (!known) throw json::other_error::create(501, "role '" + r + "' is not known: allowed input, output, in-out", &j);
  if (j.contains("values")) {
    const json& values = j.at("values");
    IntegerValues iv;
    iv.low = checkedInteger<std::int64_t>(values.at("low"), "values.low");
    iv.high = checkedInteger<std::int64_t>(values.at("high"), "values.high");
    if (values.contains("ignore")) iv.ignore = checkedInteger<std::int64_t>(values.at("ignore"), "values.ignore");
    getIf(values, "ignore_fraction", iv.ignore_fraction);
    getIf(values, "origin", iv.origin);
    v.values = std::move(iv);
  }
}

void to_json(json& j, const BufferProblemSpec& v) {
  j = {{"label", v.label}, {"buffers", v.buffers}, {"seed", v.seed}, {"bytes_moved", v.bytes_moved}};
}
void from_json(const json& j, BufferProblemSpec& v) {
  getIf(j, "label", v.label);
  const json& buffers = j.at("buffers");
  if (!buffers.is_array())
    throw json::type_error::create(302, "buffers must be an array, not " + std::string(buffers.type_name()), &j);
  v.buffers = buffers.get<std::vector<BufferSpec>>();
  getIf(j, "seed", v.seed);
  getIf(j, "bytes_moved", v.bytes_moved);
}

void to_json(json& j, const LaunchArgument& v) {
  j = {{"kind", static_cast<int>(v.kind)},
       {"buffer", v.buffer},
       {"value", v.value},
       {"scratch_bytes", v.scratch_bytes},
       {"name", v.name}};
}
void from_json(const json& j, LaunchArgument& v) {
  const int kind = checkedInteger<int>(j.at("kind"), "kind");
  if (kind < static_cast<int>(LaunchArgument::Kind::kInput) ||
      kind > static_cast<int>(LaunchArgument::Kind::kScratch)) {
    throw json::other_error::create(501, "argument kind " + std::to_string(kind) + " is out of range: allowed 0 … 4",
                                    &j);
  }
  v.kind = static_cast<LaunchArgument::Kind>(kind);
  getIf(j, "buffer", v.buffer);
  getIf(j, "value", v.value);
  getIf(j, "scratch_bytes", v.scratch_bytes);
  getIf(j, "name", v.name);
}

void to_json(json& j, const GpuModule& v) {
  j = {{"entry", v.entry},
       {"label", v.label},
       {"arch", v.arch},
       {"cubin", json::binary(v.cubin)},
       {"grid", {v.grid_x, v.grid_y, v.grid_z}},
       {"block_threads", v.block_threads},
       {"dynamic_smem_bytes", v.dynamic_smem_bytes},
       {"arguments", v.arguments}};
}
void from_json(const json& j, GpuModule& v) {
  getIf(j, "entry", v.entry);
  getIf(j, "label", v.label);
  getIf(j, "arch", v.arch);
  if (auto it = j.find("cubin"); it != j.end()) {
    if (!it->is_binary()) throw json::type_error::create(302, "cubin must be a byte string", &j);
    v.cubin = it->get_binary();
  }
  if (auto it = j.find("grid"); it != j.end()) {
    if (!it->is_array() || it->size() != 3) throw json::other_error::create(501, "grid needs 3 sizes", &j);
    v.grid_x = checkedInteger<std::int64_t>((*it)[0], "grid");
    v.grid_y = checkedInteger<std::int64_t>((*it)[1], "grid");
    v.grid_z = checkedInteger<std::int64_t>((*it)[2], "grid");
  }
  getIf(j, "block_threads", v.block_threads);
  getIf(j, "dynamic_smem_bytes", v.dynamic_smem_bytes);
  getIf(j, "arguments", v.arguments);
}

/// Every field of a RunOptions by its key, for both directions.
template <class V, class F>
void runOptionsFields(V& v, F&& f) {
  f("min_warmup_runs", v.min_warmup_runs);
  f("warmup_ms", v.warmup_ms);
  f("min_timed_runs", v.min_timed_runs);
  f("max_timed_runs", v.max_timed_runs);
  f("timed_ms", v.timed_ms);
  f("flush_l2", v.flush_l2);
  f("warm", v.warm);
  f("check", v.check);
  f("cupti_activity", v.cupti_activity);
  f("cupti_metrics", v.cupti_metrics);
  f("check_threads", v.check_threads);
}
void to_json(json& j, const RunOptions& v) {
  writeFields(j, v, [](const auto& x, auto&& f) { runOptionsFields(x, f); });
}
void from_json(const json& j, RunOptions& v) {
  readFields(j, v, [](auto& x, auto&& f) { runOptionsFields(x, f); });
}

/// Every field of a TimingStats by its key, for both directions.
template <class V, class F>
void timingStatsFields(V& v, F&& f) {
  f("runs", v.runs);
  f("median_us", v.median_us);
  f("min_us", v.min_us);
  f("max_us", v.max_us);
  f("p25_us", v.p25_us);
  f("p75_us", v.p75_us);
  f("spread_pct", v.spread_pct);
}
void to_json(json& j, const TimingStats& v) {
  writeFields(j, v, [](const auto& x, auto&& f) { timingStatsFields(x, f); });
}
void from_json(const json& j, TimingStats& v) {
  readFields(j, v, [](auto& x, auto&& f) { timingStatsFields(x, f); });
}

void to_json(json& j, const Metric& v) {
  j = json::object();
  if (v.value) {
    j["value"] = *v.value;
  } else {
    j["unavailable"] = v.unavailable;
  }
}
void from_json(const json& j, Metric& v) {
  if (auto it = j.find("value"); it != j.end() && it->is_number()) {
    v = Metric::of(it->get<double>());
  } else {
    v = Metric::missing(j.value("unavailable", std::string("not collected")));
  }
}

void to_json(json& j, const RunOutcome& v) {
  j = {{"status", std::string(runStatusName(v.status))},
       {"reason", v.reason},
       {"attributes",
        {{"registers", v.attributes.registers},
         {"local_bytes", v.attributes.local_bytes},
         {"static_smem_bytes", v.attributes.static_smem_bytes},
         {"max_threads_per_block", v.attributes.max_threads_per_block}}},
       {"driver_active_blocks_per_sm", v.driver_active_blocks_per_sm},
       {"grid_blocks", v.grid_blocks},
       {"checked", v.checked},
       {"check",
        {{"ok", v.check.ok},
         {"mismatches", v.check.mismatches},
         {"max_abs_error", v.check.max_abs_error},
         {"message", v.check.message},
         {"compared_with", v.check.compared_with}}},
       {"time", v.time},
       {"warmup_runs", v.warmup_runs},
       {"bytes_moved", v.bytes_moved},
       {"bandwidth_GBps", v.bandwidth_GBps},
       {"pct_of_copy", v.pct_of_copy},
       {"bandwidth_from", v.bandwidth_from},
       {"warm_note", v.warm_note},
       {"achieved_occupancy_pct", v.achieved_occupancy_pct},
       {"dram_read_bytes", v.dram_read_bytes},
       {"dram_write_bytes", v.dram_write_bytes},
       {"local_load_bytes", v.local_load_bytes},
       {"local_store_bytes", v.local_store_bytes},
       {"context_reset", v.context_reset}};
  if (v.kernel_time) j["kernel_time"] = *v.kernel_time;
  if (v.warm_time) j["warm_time"] = *v.warm_time;
  if (v.warm_kernel_time) j["warm_kernel_time"] = *v.warm_kernel_time;
}
void from_json(const json& j, RunOutcome& v) {
  v.status = parsedEnum(j, "status", v.status, parseRunStatus);
  getIf(j, "reason", v.reason);
  if (auto it = j.find("attributes"); it != j.end()) {
    getIf(*it, "registers", v.attributes.registers);
    getIf(*it, "local_bytes", v.attributes.local_bytes);
    getIf(*it, "static_smem_bytes", v.attributes.static_smem_bytes);
    getIf(*it, "max_threads_per_block", v.attributes.max_threads_per_block);
  }
  getIf(j, "driver_active_blocks_per_sm", v.driver_active_blocks_per_sm);
  getIf(j, "grid_blocks", v.grid_blocks);
  getIf(j, "checked", v.checked);
  if (auto it = j.find("check"); it != j.end()) {
    getIf(*it, "ok", v.check.ok);
    getIf(*it, "mismatches", v.check.mismatches);
    getIf(*it, "max_abs_error", v.check.max_abs_error);
    getIf(*it, "message", v.check.message);
    getIf(*it, "compared_with", v.check.compared_with);
  }
  getIf(j, "time", v.time);
  if (auto it = j.find("kernel_time"); it != j.end() && it->is_object()) v.kernel_time = it->get<TimingStats>();
  if (auto it = j.find("warm_time"); it != j.end() && it->is_object()) v.warm_time = it->get<TimingStats>();
  if (auto it = j.find("warm_kernel_time"); it != j.end() && it->is_object()) {
    v.warm_kernel_time = it->get<TimingStats>();
  }
  getIf(j, "warmup_runs", v.warmup_runs);
  getIf(j, "bytes_moved", v.bytes_moved);
  getIf(j, "bandwidth_GBps", v.bandwidth_GBps);
  getIf(j, "pct_of_copy", v.pct_of_copy);
  getIf(j, "bandwidth_from", v.bandwidth_from);
  getIf(j, "warm_note", v.warm_note);
  getIf(j, "achieved_occupancy_pct", v.achieved_occupancy_pct);
  getIf(j, "dram_read_bytes", v.dram_read_bytes);
  getIf(j, "dram_write_bytes", v.dram_write_bytes);
  getIf(j, "local_load_bytes", v.local_load_bytes);
  getIf(j, "local_store_bytes", v.local_store_bytes);
  getIf(j, "context_reset", v.context_reset);
}

// ---- frames -------------------------------------------------------------------------------------

namespace {

bool isSocket(int fd) {
  struct stat st {};
  return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

std::optional<Error> writeAll(int fd, const std::uint8_t* data, std::size_t size) {
  const bool sock = isSocket(fd);
  while (size > 0) {
    const ssize_t n = sock ? ::send(fd, data, size, MSG_NOSIGNAL) : ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error{std::string("write failed: ") + std::strerror(errno)};
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return std::nullopt;
}

/// Reads exactly `size` bytes before `deadline`; kNone when done.
FrameFailure readAll(int fd, std::uint8_t* data, std::size_t size, std::chrono::steady_clock::time_point& deadline,
                     const FrameWaitFn& on_wait, std::string& error) {
  while (size > 0) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      error = "no answer in time";
      return FrameFailure::kTimedOut;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    pollfd p{fd, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 50)));
    if (r < 0) {
      if (errno == EINTR) continue;
      error = std::string("poll failed: ") + std::strerror(errno);
      return FrameFailure::kIoError;
    }
    if (r == 0) {
      if (on_wait) on_wait(deadline);
      continue;
    }
    const ssize_t n = ::read(fd, data, size);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      if (errno == ECONNRESET) {
        error = "the other end closed the connection";
        return FrameFailure::kClosed;
      }
      error = std::string("read failed: ") + std::strerror(errno);
      return FrameFailure::kIoError;
    }
    if (n == 0) {
      error = "the other end closed the connection";
      return FrameFailure::kClosed;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return FrameFailure::kNone;
}

}  // namespace

Expected<std::vector<std::uint8_t>> encodeFrame(const json& message) {
  std::vector<std::uint8_t> body;
  try {
    body = json::to_cbor(message);
  } catch (const json::exception& e) {
    return Error{std::string("cannot encode the message: ") + e.what()};
  }
  if (body.size() > kMaxWorkerFrameBytes) {
    return Error{"a message of " + std::to_string(body.size()) + " bytes is too large: allowed up to " +
                 std::to_string(kMaxWorkerFrameBytes)};
  }
  const auto n = static_cast<std::uint32_t>(body.size());
  std::vector<std::uint8_t> frame = {static_cast<std::uint8_t>(n & 0xFF), static_cast<std::uint8_t>((n >> 8) & 0xFF),
                                     static_cast<std::uint8_t>((n >> 16) & 0xFF), static_cast<std::uint8_t>(n >> 24)};
  frame.insert(frame.end(), body.begin(), body.end());
  return frame;
}

std::optional<Error> writeBytes(int fd, const std::vector<std::uint8_t>& bytes) {
  return writeAll(fd, bytes.data(), bytes.size());
}

std::optional<Error> writeFrame(int fd, const json& message) {
  auto frame = encodeFrame(message);
  if (!frame) return Error{frame.error()};
  return writeBytes(fd, *frame);
}

FrameRead readFrame(int fd, std::chrono::steady_clock::time_point deadline, const FrameWaitFn& on_wait) {
  FrameRead out;
  std::uint8_t header[4] = {};
  out.failure = readAll(fd, header, 4, deadline, on_wait, out.error);
  if (out.failure != FrameFailure::kNone) return out;
  const std::uint32_t n = std::uint32_t{header[0]} | (std::uint32_t{header[1]} << 8) |
                          (std::uint32_t{header[2]} << 16) | (std::uint32_t{header[3]} << 24);
  if (n == 0 || n > kMaxWorkerFrameBytes) {
    out.failure = FrameFailure::kGarbage;
    out.error =
        "a frame length of " + std::to_string(n) + " bytes: allowed 1 … " + std::to_string(kMaxWorkerFrameBytes);
    return out;
  }
  std::vector<std::uint8_t> body(n);
  out.failure = readAll(fd, body.data(), body.size(), deadline, on_wait, out.error);
  if (out.failure != FrameFailure::kNone) return out;
  // Even with exceptions off the CBOR reader throws on a length it cannot allocate (found by
  // fuzz_worker_frame: an array of 10^19 elements): that is garbage too.
  try {
    out.message = json::from_cbor(body, /*strict=*/true, /*allow_exceptions=*/false);
  } catch (const json::exception&) {
    out.message = json(json::value_t::discarded);
  }
  if (out.message.is_discarded() || !out.message.is_object()) {
    out.failure = FrameFailure::kGarbage;
    out.error = "a frame of " + std::to_string(n) + " bytes that is not a CBOR object";
    out.message = json();
  }
  return out;
}

// ---- the worker's loop --------------------------------------------------------------------------

namespace {

// The cancel of the run in progress: set by the SIGUSR1 handler when the signal's value is the
// run's sequence number. g_cancelled_seq remembers a signal that came before the run began.
std::atomic<bool> g_cancel{false};
std::atomic<long long> g_current_seq{-1};
std::atomic<long long> g_cancelled_seq{-1};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<long long>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

extern "C" void onWorkerCancelSignal(int, siginfo_t* info, void*) {
  const long long seq = info != nullptr ? info->si_value.sival_int : -1;
  g_cancelled_seq.store(seq);
  if (seq == g_current_seq.load()) g_cancel.store(true);
}

void installCancelSignal() {
  struct sigaction sa {};
  sa.sa_sigaction = onWorkerCancelSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART | SA_SIGINFO;
  sigaction(SIGUSR1, &sa, nullptr);
}

/// Ends the process when the client goes away, even while a run holds the main thread.
void watchClient(int fd) {
  std::thread([fd] {
    for (;;) {
      pollfd p{fd, POLLRDHUP, 0};
      const int r = ::poll(&p, 1, -1);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0 || (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0) ::_exit(0);
    }
  }).detach();
}

json failed(const std::string& error) {
  return {{"ok", false}, {"error", error}};
}

json answer(GpuRunner& runner, const json& request) {
  const std::string op = request.value("op", std::string());
  if (op == "copy_bandwidth") {
    auto bw = runner.copyBandwidth(request.value("refresh", false));
    if (!bw) return failed(bw.error());
    return {{"ok", true}, {"copy", *bw}};
  }
  if (op == "set_problem") {
    const auto it = request.find("spec");
    const std::optional<Error> e =
        it == request.end() || it->is_null() ? runner.clearProblem() : runner.setProblem(it->get<ProblemSpec>());
    if (e) return failed(e->message);
    return {{"ok", true}};
  }
  if (op == "set_buffer_problem") {
    const std::optional<Error> e = runner.setBufferProblem(request.at("spec").get<BufferProblemSpec>());
    if (e) return failed(e->message);
    return {{"ok", true}};
  }
  if (op == "run") {
    const auto module = request.at("module").get<GpuModule>();
    const auto options = request.at("options").get<RunOptions>();
    const long long seq = integerValue(request, "seq", -1LL).value_or(-1);
    g_current_seq.store(seq);
    g_cancel.store(seq >= 0 && g_cancelled_seq.load() == seq);
    const RunOutcome o = runner.run(module, options, &g_cancel);
    g_current_seq.store(-1);
    return {{"ok", true}, {"outcome", o}};
  }
  return failed("unknown request '" + op + "': allowed copy_bandwidth, set_problem, set_buffer_problem, run, quit");
}

}  // namespace

int refuseGpuWorker(int fd, const std::string& error) {
  (void)writeFrame(fd, {{"op", "ready"}, {"protocol", kWorkerProtocolVersion}, {"error", error}});
  return 1;
}

int serveGpuWorker(GpuRunner& runner, int fd, double startup_seconds) {
  installCancelSignal();
  const json ready = {{"op", "ready"},
                      {"protocol", kWorkerProtocolVersion},
                      {"device", runner.device()},
                      {"driver", runner.driverVersionText()},
                      {"startup_s", startup_seconds}};
  if (writeFrame(fd, ready)) return 1;
  watchClient(fd);
  const auto forever = std::chrono::steady_clock::time_point::max();
  for (;;) {
    FrameRead in = readFrame(fd, forever);
    if (in.failure == FrameFailure::kClosed) return 0;
    // A frame that cannot be read leaves the stream out of step: nothing after it can be trusted.
    if (in.failure != FrameFailure::kNone) return 1;
    if (in.message.value("op", std::string()) == "quit") return 0;
    json reply;
    try {
      reply = answer(runner, in.message);
    } catch (const json::exception& e) {
      reply = failed(std::string("unreadable request: ") + e.what());
    }
    reply["context_lost"] = runner.contextLost();
    if (writeFrame(fd, reply)) return 1;
  }
}

}  // namespace occx
