#include "core/step/profiler_trace.h"

#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <istream>
#include <limits>
#include <map>
#include <memory>
#include <streambuf>
#include <system_error>
#include <utility>

#include <nlohmann/json.hpp>

namespace occx::step {
namespace {

using json = nlohmann::json;

constexpr std::size_t kChunk = std::size_t{1} << 20;              // bytes of JSON text per read
constexpr std::uint64_t kProgressEvery = std::uint64_t{4} << 20;  // bytes of JSON between progress calls
constexpr std::int64_t kMaxDimension = std::int64_t{1} << 31;
constexpr std::size_t kMaxDepth = 64;  // Kineto's traces nest 5 deep

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The parts of one trace event the reader keeps, filled as the parser walks the event object.
struct PendingEvent {
  std::string ph;
  std::string cat;
  std::string name;
  double ts = 0.0;
  double dur = 0.0;
  std::int64_t correlation = -1;
  std::int64_t stream = -1;
  std::int64_t device = -1;
  std::int64_t registers = -1;
  std::int64_t shared = -1;
  std::array<std::int64_t, 3> grid{};
  std::array<std::int64_t, 3> block{};

  void clear() {
    ph.clear();
    cat.clear();
    name.clear();
    ts = dur = 0.0;
    correlation = stream = device = registers = shared = -1;
    grid = {};
    block = {};
  }
};

struct StepSpan {
  std::string name;
  int number = -1;
  double begin = 0.0;
  double end = 0.0;
};

int stepNumber(std::string_view name) {
  // "ProfilerStep#12" → 12; -1 when the suffix is not a number.
  std::string_view digits = name.substr(std::string_view("ProfilerStep#").size());
  if (digits.empty() || digits.size() > 9) return -1;
  int n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n;
}

// The SAX handler: walks "traceEvents" (or a bare top-level array) and "deviceProperties",
// keeps what ProfilerTrace needs and ignores the rest without building it.
class TraceSax final : public nlohmann::json_sax<json> {
 public:
  TraceSax(ProfilerTrace& trace, std::vector<std::pair<std::int64_t, double>>& launches, std::vector<StepSpan>& cpu,
           std::vector<StepSpan>& gpu)
      : trace_(trace), launches_(launches), cpu_steps_(cpu), gpu_steps_(gpu) {}

  bool null() override { return true; }
  bool boolean(bool /*val*/) override { return true; }
  bool number_integer(number_integer_t val) override { return number(static_cast<double>(val), val); }
  bool number_unsigned(number_unsigned_t val) override {
    const auto as_int = val > static_cast<number_unsigned_t>(std::numeric_limits<std::int64_t>::max())
                            ? std::numeric_limits<std::int64_t>::max()
                            : static_cast<std::int64_t>(val);
    return number(static_cast<double>(val), as_int);
  }
  bool number_float(number_float_t val, const string_t& /*s*/) override {
    const bool fits = val >= -9.0e18 && val <= 9.0e18;
    return number(val, fits ? static_cast<std::int64_t>(val) : -1);
  }
  bool string(string_t& val) override {
    if (stack_.empty()) return true;
    const Frame& f = stack_.back();
    if (f.role == Role::kEvent) {
      if (f.key == "ph") {
        event_.ph = val;
      } else if (f.key == "cat") {
        event_.cat = val;
      } else if (f.key == "name") {
        event_.name.swap(val);
      }
    } else if (f.role == Role::kDevice && device_index_ == 0 && f.key == "name") {
      trace_.device_name = val;
    }
    return true;
  }
  bool binary(binary_t& /*val*/) override { return true; }

  bool start_object(std::size_t /*elements*/) override {
    if (tooDeep()) return false;
    Role role = Role::kOther;
    if (stack_.empty()) {
      role = Role::kRoot;
    } else {
      const Frame& f = stack_.back();
      if (f.role == Role::kEvents) {
        role = Role::kEvent;
        event_.clear();
      } else if (f.role == Role::kEvent && f.key == "args") {
        role = Role::kArgs;
      } else if (f.role == Role::kDevices) {
        role = Role::kDevice;
      }
    }
    stack_.push_back({role, {}, 0});
    return true;
  }
  bool key(string_t& val) override {
    stack_.back().key.swap(val);
    return true;
  }
  bool end_object() override {
    const Role role = stack_.back().role;
    stack_.pop_back();
    if (role == Role::kEvent) finishEvent();
    if (role == Role::kDevice) ++device_index_;
    return true;
  }
  bool start_array(std::size_t /*elements*/) override {
    if (tooDeep()) return false;
    Role role = Role::kOther;
    if (stack_.empty()) {
      role = Role::kEvents;  // a bare array of events is a Chrome trace too
    } else {
      const Frame& f = stack_.back();
      if (f.role == Role::kRoot && f.key == "traceEvents") {
        role = Role::kEvents;
      } else if (f.role == Role::kRoot && f.key == "deviceProperties") {
        role = Role::kDevices;
      } else if (f.role == Role::kArgs && f.key == "grid") {
        role = Role::kGrid;
      } else if (f.role == Role::kArgs && f.key == "block") {
        role = Role::kBlock;
      }
    }
    if (role == Role::kEvents) saw_events_ = true;
    stack_.push_back({role, {}, 0});
    return true;
  }
  bool end_array() override {
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) override {
    error_position_ = position;
    std::string what = ex.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error …" → after ": "
    if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    if (what.size() > 160) what = what.substr(0, 160) + "…";
    error_ = what;
    (void)last_token;
    return false;
  }

  [[nodiscard]] bool sawEvents() const { return saw_events_; }
  /// Where the parser stands in the JSON text, bytes (for the too-deep problem).
  void setPosition(std::function<std::uint64_t()> position) { position_ = std::move(position); }
  /// The byte offset of the JSON text where the parse stopped early (too deep); 0 when it did not.
  [[nodiscard]] std::uint64_t tooDeepAt() const { return too_deep_at_; }
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] std::size_t errorPosition() const { return error_position_; }

 private:
  enum class Role { kRoot, kEvents, kEvent, kArgs, kGrid, kBlock, kDevices, kDevice, kOther };
  struct Frame {
    Role role;
    std::string key;
    int index;  // arrays: the element's position
  };

  // Arrays and objects nested deeper than kMaxDepth stop the read (a few MB of gzipped brackets
  // would otherwise grow the stack by GBs); the position is where the parser stood.
  bool tooDeep() {
    if (stack_.size() < kMaxDepth) return false;
    too_deep_at_ = position_ ? position_() : 0;
    return true;
  }

  bool number(double value, std::int64_t as_int) {
    if (stack_.empty()) return true;
    Frame& f = stack_.back();
    switch (f.role) {
      case Role::kEvent:
        if (f.key == "ts") {
          event_.ts = value;
        } else if (f.key == "dur") {
          event_.dur = value;
        }
        break;
      case Role::kArgs:
        if (f.key == "correlation") {
          event_.correlation = as_int;
        } else if (f.key == "stream") {
          event_.stream = as_int;
        } else if (f.key == "device") {
          event_.device = as_int;
        } else if (f.key == "registers per thread") {
          event_.registers = as_int;
        } else if (f.key == "shared memory") {
          event_.shared = as_int;
        }
        break;
      case Role::kGrid:
      case Role::kBlock: {
        auto& dims = f.role == Role::kGrid ? event_.grid : event_.block;
        if (f.index < 3) {  // counted no further: a long array cannot wrap the index
          dims[static_cast<std::size_t>(f.index)] = std::clamp<std::int64_t>(as_int, 0, kMaxDimension);
          ++f.index;
        }
        break;
      }
      case Role::kDevice:
        if (device_index_ == 0 && f.key == "computeMajor") trace_.compute_major = static_cast<int>(as_int);
        if (device_index_ == 0 && f.key == "computeMinor") trace_.compute_minor = static_cast<int>(as_int);
        break;
      default:
        break;
    }
    return true;
  }

  void finishEvent() {
    ++trace_.events;
    if (event_.ph != "X") return;  // complete events only: flows, metadata and instants carry no time
    const std::string& cat = event_.cat;
    if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
      GpuActivity a;
      a.kind = cat == "kernel" ? GpuActivityKind::kKernel
                               : (cat == "gpu_memcpy" ? GpuActivityKind::kMemcpy : GpuActivityKind::kMemset);
      a.name = std::move(event_.name);
      a.start_us = event_.ts;
      a.duration_us = std::max(0.0, event_.dur);
      a.grid = event_.grid;
      a.block = event_.block;
      a.stream = event_.stream;
      a.device = static_cast<int>(std::clamp<std::int64_t>(event_.device, -1, 1 << 20));
      a.correlation = event_.correlation;
      a.registers_per_thread = static_cast<int>(std::clamp<std::int64_t>(event_.registers, -1, 1 << 20));
      a.shared_bytes = std::clamp<std::int64_t>(event_.shared, -1, std::int64_t{1} << 40);
      trace_.activities.push_back(std::move(a));
    } else if ((cat == "cuda_runtime" || cat == "cuda_driver") && event_.correlation >= 0) {
      launches_.emplace_back(event_.correlation, event_.ts);
    } else if ((cat == "user_annotation" || cat == "gpu_user_annotation") && startsWith(event_.name, "ProfilerStep#")) {
      auto& spans = cat == "user_annotation" ? cpu_steps_ : gpu_steps_;
      spans.push_back({event_.name, stepNumber(event_.name), event_.ts, event_.ts + std::max(0.0, event_.dur)});
    }
  }

  ProfilerTrace& trace_;
  std::vector<std::pair<std::int64_t, double>>& launches_;
  std::vector<StepSpan>& cpu_steps_;
  std::vector<StepSpan>& gpu_steps_;
  std::vector<Frame> stack_;
  PendingEvent event_;
  int device_index_ = 0;
  bool saw_events_ = false;
  std::string error_;
  std::size_t error_position_ = 0;
  std::uint64_t too_deep_at_ = 0;
  std::function<std::uint64_t()> position_;
};

// A stream buffer over zlib's gzFile: gzipped or plain files alike (gzread passes plain data
// through). Counts the JSON bytes, reports progress, stops at the cancel flag, and keeps zlib's
// error when the compressed data is damaged or ends early.
class GzStreamBuf final : public std::streambuf {
 public:
  GzStreamBuf(gzFile file, std::uint64_t file_bytes, const TraceReadOptions& options)
      : file_(file), file_bytes_(file_bytes), options_(options), buffer_(kChunk) {}

  [[nodiscard]] std::uint64_t jsonBytes() const { return json_bytes_; }
  /// Bytes of JSON text consumed so far (read, less what is still buffered).
  [[nodiscard]] std::uint64_t position() const { return json_bytes_ - static_cast<std::uint64_t>(egptr() - gptr()); }
  [[nodiscard]] bool cancelled() const { return cancelled_; }
  [[nodiscard]] const std::string& zlibError() const { return zlib_error_; }
  [[nodiscard]] std::uint64_t compressedOffset() const {
    const auto offset = gzoffset(file_);
    return offset < 0 ? 0 : static_cast<std::uint64_t>(offset);
  }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed)) {
      cancelled_ = true;
      return traits_type::eof();
    }
    const int n = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
    if (n <= 0) {
      // A gzip stream cut short reads to its end and then reports Z_BUF_ERROR ("unexpected end of
      // file") rather than failing the read.
      int code = Z_OK;
      const char* message = gzerror(file_, &code);
      if (n < 0 || code != Z_OK) zlib_error_ = message != nullptr && *message != '\0' ? message : "read error";
      return traits_type::eof();
    }
    json_bytes_ += static_cast<std::uint64_t>(n);
    if (options_.progress && json_bytes_ - last_progress_ >= kProgressEvery) {
      last_progress_ = json_bytes_;
      options_.progress({compressedOffset(), file_bytes_});
    }
    setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  gzFile file_;
  std::uint64_t file_bytes_;
  const TraceReadOptions& options_;
  std::vector<char> buffer_;
  std::uint64_t json_bytes_ = 0;
  std::uint64_t last_progress_ = 0;
  bool cancelled_ = false;
  std::string zlib_error_;
};

// JSON text in memory as a stream (no copy), so both entry points parse through one istream.
class MemoryStreamBuf final : public std::streambuf {
 public:
  explicit MemoryStreamBuf(std::string_view text) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-const-cast): read only; streambuf's interface takes char*
    char* begin = const_cast<char*>(text.data());
    setg(begin, begin, begin + text.size());
  }
  [[nodiscard]] std::uint64_t position() const { return static_cast<std::uint64_t>(gptr() - eback()); }
};

// The launch time of each correlation id, looked up by binary search.
class LaunchTimes {
 public:
  explicit LaunchTimes(std::vector<std::pair<std::int64_t, double>>& launches) : launches_(launches) {
    std::sort(launches_.begin(), launches_.end());
  }
  [[nodiscard]] const double* find(std::int64_t correlation) const {
    auto it = std::lower_bound(launches_.begin(), launches_.end(), std::make_pair(correlation, -1.0e300));
    return it != launches_.end() && it->first == correlation ? &it->second : nullptr;
  }

 private:
  std::vector<std::pair<std::int64_t, double>>& launches_;
};

int spanContaining(const std::vector<TraceStep>& steps, double t) {
  // steps sorted by begin; the last one beginning at or before t, if t lies inside it
  auto it =
      std::upper_bound(steps.begin(), steps.end(), t, [](double v, const TraceStep& s) { return v < s.begin_us; });
  if (it == steps.begin()) return -1;
  --it;
  return t <= it->end_us ? static_cast<int>(it - steps.begin()) : -1;
}

std::vector<TraceStep> toSteps(std::vector<StepSpan> spans) {
  std::sort(spans.begin(), spans.end(), [](const StepSpan& a, const StepSpan& b) { return a.begin < b.begin; });
  std::vector<TraceStep> steps;
  steps.reserve(spans.size());
  for (auto& s : spans) steps.push_back({std::move(s.name), s.number, s.begin, s.end});
  return steps;
}

// Assigns each activity its step: by its CPU launch inside a CPU ProfilerStep range; without a
// launch, by its start inside the GPU-side annotation of the same step.
void assignSteps(ProfilerTrace& trace, std::vector<std::pair<std::int64_t, double>>& launches,
                 std::vector<StepSpan> cpu, std::vector<StepSpan> gpu, int steps_when_unannotated) {
  if (cpu.empty() && gpu.empty()) {
    trace.annotated_steps = false;
    trace.step_count = steps_when_unannotated;
    TraceStep whole{"whole trace", -1, 0.0, 0.0};
    if (!trace.activities.empty()) {
      whole.begin_us = trace.activities.front().start_us;
      for (const auto& a : trace.activities) {
        whole.begin_us = std::min(whole.begin_us, a.start_us);
        whole.end_us = std::max(whole.end_us, a.start_us + a.duration_us);
      }
    }
    trace.steps = {whole};
    for (auto& a : trace.activities) a.step = 0;
    return;
  }
  trace.annotated_steps = true;
  const bool by_cpu = !cpu.empty();
  trace.steps_on_gpu = !by_cpu;
  std::vector<TraceStep> gpu_steps;  // the GPU-side annotations, for activities without a launch
  if (by_cpu) {
    trace.steps = toSteps(std::move(cpu));
    gpu_steps = toSteps(std::move(gpu));
  } else {
    trace.steps = toSteps(std::move(gpu));
    gpu_steps = trace.steps;
  }
  trace.step_count = static_cast<int>(trace.steps.size());
  const LaunchTimes times(launches);
  // Each GPU-side annotation's step in trace.steps (same name), for activities without a launch.
  std::vector<int> gpu_to_step(gpu_steps.size(), -1);
  std::map<std::string, int> step_by_name;
  for (std::size_t i = 0; i < trace.steps.size(); ++i) step_by_name.emplace(trace.steps[i].name, static_cast<int>(i));
  for (std::size_t g = 0; g < gpu_steps.size(); ++g) {
    auto it = step_by_name.find(gpu_steps[g].name);
    if (it != step_by_name.end()) gpu_to_step[g] = it->second;
  }
  for (auto& a : trace.activities) {
    int index = -1;
    const double* launched = by_cpu ? times.find(a.correlation) : nullptr;
    if (launched != nullptr) {
      index = spanContaining(trace.steps, *launched);  // launched outside every step: not counted
    } else {
      const int g = spanContaining(gpu_steps, a.start_us);
      if (g >= 0) index = by_cpu ? gpu_to_step[static_cast<std::size_t>(g)] : g;
    }
    a.step = index;
    if (index < 0) ++trace.outside_steps;
  }
}

Expected<ProfilerTrace> finish(ProfilerTrace trace, const TraceSax& sax,
                               std::vector<std::pair<std::int64_t, double>>& launches, std::vector<StepSpan> cpu,
                               std::vector<StepSpan> gpu, const TraceReadOptions& options,
                               const std::string& zlib_error) {
  const std::string& path = trace.path;
  if (!zlib_error.empty()) {
    trace.problems.push_back(path + ": the gzip data is damaged or ends early after " +
                             std::to_string(trace.bytes_read) + " bytes of the file (" +
                             std::to_string(trace.json_bytes) + " bytes of JSON text; zlib: " + zlib_error +
                             "); the events before it were read");
  } else if (sax.tooDeepAt() > 0) {
    trace.problems.push_back(path + ": arrays and objects nested deeper than " + std::to_string(kMaxDepth) +
                             " levels at byte " + std::to_string(sax.tooDeepAt()) +
                             " of the JSON text (not a trace Kineto writes); the " + std::to_string(trace.events) +
                             " events before it were read");
  } else if (!sax.error().empty()) {
    trace.problems.push_back(path + ": not valid JSON at byte " + std::to_string(sax.errorPosition()) +
                             " of the JSON text (" + sax.error() + "); the " + std::to_string(trace.events) +
                             " events before it were read");
  }
  if (trace.events == 0 && !sax.sawEvents()) {
    std::string why = trace.problems.empty() ? std::string("no \"traceEvents\" array") : trace.problems.front();
    return Error(path + " is not a Chrome trace (what torch.profiler's export_chrome_trace writes): " + why);
  }
  assignSteps(trace, launches, std::move(cpu), std::move(gpu), options.steps_when_unannotated);
  return trace;
}

std::optional<Error> checkOptions(const TraceReadOptions& options) {
  if (options.steps_when_unannotated < 1 || options.steps_when_unannotated > 1000000) {
    return Error("steps " + std::to_string(options.steps_when_unannotated) +
                 " is out of range: allowed 1 … 1000000 (the steps the trace holds when it has no ProfilerStep "
                 "annotations)");
  }
  return std::nullopt;
}

}  // namespace

std::string_view gpuActivityKindName(GpuActivityKind kind) {
  switch (kind) {
    case GpuActivityKind::kKernel:
      return "kernel";
    case GpuActivityKind::kMemcpy:
      return "memcpy";
    case GpuActivityKind::kMemset:
      return "memset";
  }
  return "kernel";
}

Expected<ProfilerTrace> parseProfilerTrace(std::string_view json_text, const std::string& path,
                                           const TraceReadOptions& options) {
  if (auto bad = checkOptions(options)) return *bad;
  ProfilerTrace trace;
  trace.path = path;
  std::vector<std::pair<std::int64_t, double>> launches;
  std::vector<StepSpan> cpu;
  std::vector<StepSpan> gpu;
  TraceSax sax(trace, launches, cpu, gpu);
  MemoryStreamBuf buffer(json_text);
  sax.setPosition([&buffer] { return buffer.position(); });
  std::istream in(&buffer);
  json::sax_parse(in, &sax);
  trace.bytes_read = trace.json_bytes = json_text.size();
  return finish(std::move(trace), sax, launches, std::move(cpu), std::move(gpu), options, {});
}

Expected<ProfilerTrace> readProfilerTrace(const std::string& path, const TraceReadOptions& options) {
  if (auto bad = checkOptions(options)) return *bad;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) return Error("cannot open trace " + path + ": " + ec.message());
  if (!std::filesystem::exists(status)) return Error("cannot open trace " + path + ": no such file");
  if (!std::filesystem::is_regular_file(status)) {
    return Error("cannot read trace " + path + ": not a regular file (a folder, a pipe or a device)");
  }
  std::uint64_t file_bytes = std::filesystem::file_size(path, ec);
  if (ec) file_bytes = 0;  // progress then counts bytes without a total
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), &gzclose);
  if (!file) return Error("cannot open trace " + path + ": " + std::generic_category().message(errno));
  gzbuffer(file.get(), 256 * 1024);
  ProfilerTrace trace;
  trace.path = path;
  trace.gzipped = gzdirect(file.get()) == 0;
  std::vector<std::pair<std::int64_t, double>> launches;
  std::vector<StepSpan> cpu;
  std::vector<StepSpan> gpu;
  TraceSax sax(trace, launches, cpu, gpu);
  GzStreamBuf buffer(file.get(), file_bytes, options);
  sax.setPosition([&buffer] { return buffer.position(); });
  std::istream in(&buffer);
  json::sax_parse(in, &sax);
  if (buffer.cancelled()) return Error::cancellation();
  trace.gzipped = gzdirect(file.get()) == 0;
  trace.json_bytes = buffer.jsonBytes();
  trace.bytes_read = trace.gzipped ? buffer.compressedOffset() : trace.json_bytes;
  if (options.progress) options.progress({file_bytes, file_bytes});
  return finish(std::move(trace), sax, launches, std::move(cpu), std::move(gpu), options, buffer.zlibError());
}

}  // namespace occx::step
