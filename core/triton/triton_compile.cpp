#include "core/triton/triton_compile.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/base/atomic_file.h"
#include "core/base/child_process.h"
#include "core/base/json_value.h"
#include "core/base/parallel.h"
#include "core/base/user_cache.h"

namespace occx::resources {
std::string_view tritonCompileHelperPython();
}

namespace occx::triton {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// What to do about a Python without PyTorch, in the words of the face that shows it.
std::string installAdvice(const TritonCompileOptions& options) {
  return "install PyTorch in it (`pip install torch`, which brings Triton), or " + options.choose_python;
}

/// A private temporary folder, removed with this object.
struct TempFolder {
  std::string path;
  TempFolder() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/occx-triton-XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) path = pattern;
  }
  ~TempFolder() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
};

json configJson(const SweepConfig& c, const TritonCompileOptions& options) {
  json j = {{"XBLOCK", c.xblock}, {"num_warps", c.num_warps}, {"num_stages", c.num_stages}};
  if (c.r0_block > 0) j["R0_BLOCK"] = c.r0_block;
  if (options.rsplit_size > 0 && c.xblock > 0) {  // as triton_heuristics.py's persistent_reduction sets them
    j["RSPLIT_SIZE"] = options.rsplit_size;
    j["NUM_STAGES"] = std::min(std::max(options.rsplit_size / c.xblock / 4, 1), std::max(options.mix_max_stages, 1));
  }
  return j;
}

/// The one-line tail of a helper's standard error (Python's last traceback line).
std::string lastLine(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  const auto nl = t.rfind('\n');
  std::string line = nl == std::string::npos ? t : t.substr(nl + 1);
  if (line.size() > 300) line = line.substr(0, 300) + "…";
  return line;
}

}  // namespace

std::string defaultSweepCacheDir() {
  const std::string base = userCacheDirectory();
  return base.empty() ? std::string() : base + "/triton";
}

std::string pythonProgram(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* env = std::getenv("OCCX_PYTHON"); env != nullptr && *env != '\0') return env;
  return "python3";
}

namespace {

// The folder the compiled configs go into (the options', else the user's cache), created, as an
// absolute path in the report.
std::optional<Error> makeCompileCacheDir(const TritonCompileOptions& options, TritonCompileReport& report) {
  report.cache_dir = options.cache_dir.empty() ? defaultSweepCacheDir() : options.cache_dir;
  if (report.cache_dir.empty())
    return Error{"no folder for the compiled configs: HOME is not set; " + options.choose_cache};
  std::error_code ec;
  fs::create_directories(report.cache_dir, ec);
  if (ec) return Error{"cannot create the Triton cache folder " + report.cache_dir + ": " + ec.message()};
  report.cache_dir = fs::absolute(report.cache_dir, ec).string();
  return std::nullopt;
}

// Where the compile helper and each job's request are written.
std::string helperPath(const TempFolder& tmp) {
  return tmp.path + "/triton_compile_configs.py";
}

std::string requestPath(const TempFolder& tmp, std::size_t job) {
  return tmp.path + "/request-" + std::to_string(job) + ".json";
}

// The compile helper, the module and one request per job in tmp; config i goes to job i mod jobs
// (at most 8 jobs by default, never more than configs). Returns each job's share of the configs.
Expected<std::vector<std::vector<std::size_t>>> writeHelperRequests(
    const TempFolder& tmp, const std::string& module_text, const std::string& module_hash,
    const std::vector<SweepConfig>& configs, const TritonCompileOptions& options, TritonCompileReport& report) {
  const std::string module = tmp.path + "/" + module_hash + ".py";
  if (auto w = writeFileAtomically(helperPath(tmp), resources::tritonCompileHelperPython()); !w)
    return Error{w.error()};
  if (auto w = writeFileAtomically(module, module_text); !w) return Error{w.error()};

  const int hw = defaultWorkerThreads();
  const int jobs = static_cast<int>(std::min<std::size_t>(
      configs.size(), static_cast<std::size_t>(options.jobs > 0 ? options.jobs : std::min(hw, 8))));
  report.jobs = jobs;
  std::vector<std::vector<std::size_t>> share(static_cast<std::size_t>(jobs));
  for (std::size_t i = 0; i < configs.size(); ++i) share[i % static_cast<std::size_t>(jobs)].push_back(i);
  for (int j = 0; j < jobs; ++j) {
    json request = {{"module", module}, {"cache_dir", report.cache_dir}, {"configs", json::array()}};
    for (std::size_t i : share[static_cast<std::size_t>(j)])
      request["configs"].push_back(configJson(configs[i], options));
    if (auto w = writeFileAtomically(requestPath(tmp, static_cast<std::size_t>(j)), request.dump()); !w)
      return Error{w.error()};
  }
  return share;
}

// The compile helpers at work, one per job: the events each prints fill the report, one at a time.
class CompileHelperJobs {
 public:
  CompileHelperJobs(std::string program, std::string python, const TempFolder& tmp,
                    const std::vector<std::vector<std::size_t>>& share, const TritonCompileOptions& options,
                    const std::function<void(const CompileProgress&)>& progress, const std::atomic<bool>* cancel,
                    TritonCompileReport& report)
      : program_(std::move(program)),
        python_(std::move(python)),
        tmp_(tmp),
        share_(share),
        options_(options),
        progress_(progress),
        cancel_(cancel),
        report_(report),
        total_(static_cast<int>(report.configs.size())) {}

  // Runs job j's helper to its end; the configs it did not report get its reason.
  void run(std::size_t j) {
    const auto& mine = share_[j];
    std::vector<bool> reported(mine.size(), false);
    SpawnSpec spec;
    spec.program = python_;
    spec.what = python_;
    spec.arguments = {helperPath(tmp_), requestPath(tmp_, j)};
    spec.environment = {{"CUDA_VISIBLE_DEVICES", ""}, {"PYTHONDONTWRITEBYTECODE", "1"}, {"PYTHONUNBUFFERED", "1"}};
    std::string helper_error;
    auto outcome = runProcess(
        spec, [&](std::string_view line) { takeLine(line, mine, reported, helper_error); },
        options_.timeout_s > 0 ? options_.timeout_s * static_cast<double>(std::max<std::size_t>(1, mine.size())) : 0.0,
        cancel_);
    std::lock_guard<std::mutex> lock(mu_);
    std::string why;
    if (!outcome) {
      why = outcome.error();
    } else if (outcome->cancelled) {
      why = "cancelled";
    } else if (outcome->timed_out) {
      why = "the compile helper was stopped after " + std::to_string(static_cast<int>(options_.timeout_s)) +
            " s per config";
    } else if (!helper_error.empty()) {
      why = helper_error;
    } else if (outcome->exit_code != 0) {
      why = "the compile helper " + outcome->ended + ": " + lastLine(outcome->stderr_text);
    }
    if (!helper_error.empty() && fatal_.empty()) fatal_ = helper_error;
    if (!outcome && fatal_.empty()) fatal_ = outcome.error();
    for (std::size_t i = 0; i < mine.size(); ++i) {
      if (!reported[i]) report_.configs[mine[i]].error = why.empty() ? "the compile helper did not report it" : why;
    }
  }

  // The first helper's reason it could not compile at all; empty when none.
  [[nodiscard]] const std::string& fatal() const { return fatal_; }

 private:
  // One line of a helper's output: a JSON event (start, error, config); other lines are not ours.
  void takeLine(std::string_view line, const std::vector<std::size_t>& mine, std::vector<bool>& reported,
                std::string& helper_error) {
    json m = json::parse(line, nullptr, false);
    if (!m.is_object()) return;
    try {
      const std::string event = m.value("event", std::string());
      std::lock_guard<std::mutex> lock(mu_);
      if (event == "start") {
        report_.python_version = m.value("python", std::string());
        report_.torch_version = m.value("torch", std::string());
        report_.triton_version = m.value("triton", std::string());
        report_.target = m.value("target", std::string());
        report_.import_seconds = std::max(report_.import_seconds, m.value("import_seconds", 0.0));
      } else if (event == "error") {
        const std::string missing = m.value("missing", std::string());
        const std::string why = m.value("error", std::string());
        helper_error = missing.empty() ? why
                                       : program_ + " (" + python_ + ") cannot import " + missing + " (" + why +
                                             "): compiling Triton kernels needs PyTorch and Triton in that Python — " +
                                             installAdvice(options_);
      } else if (event == "config") {
        takeConfig(m, mine, reported);
      }
    } catch (const json::exception&) {
      // a line of another shape (a warning printed on stdout): not ours
    }
  }

  // A config's outcome ("config" event) into the report, reported as progress.
  void takeConfig(const json& m, const std::vector<std::size_t>& mine, std::vector<bool>& reported) {
    const int index = integerValue(m, "index", -1).value_or(-1);
    if (index < 0 || static_cast<std::size_t>(index) >= mine.size()) return;
    // Read every field first (a field of another type throws here, before anything is set).
    auto text = [&m](const char* key, const std::string& fallback) {
      auto it = m.find(key);
      return it != m.end() && it->is_string() ? it->get<std::string>() : fallback;
    };
    ConfigCompileReport got;
    got.config = report_.configs[mine[static_cast<std::size_t>(index)]].config;
    got.ok = m.value("ok", false);
    got.error = got.ok ? std::string() : text("error", "no reason given");
    got.seconds = m.value("seconds", 0.0);
    got.how = text("how", "");
    got.triton_cache_hash = text("triton_cache_hash", "");
    got.folder = text("folder", "");
    got.shared_bytes = integerValue(m, "shared", std::int64_t{0}).value_or(0);
    ConfigCompileReport& r = report_.configs[mine[static_cast<std::size_t>(index)]];
    r = std::move(got);
    reported[static_cast<std::size_t>(index)] = true;
    ++done_;
    if (progress_) progress_(CompileProgress{done_, total_, &r});
  }

  const std::string program_;
  const std::string python_;
  const TempFolder& tmp_;
  const std::vector<std::vector<std::size_t>>& share_;
  const TritonCompileOptions& options_;
  const std::function<void(const CompileProgress&)>& progress_;
  const std::atomic<bool>* cancel_;
  TritonCompileReport& report_;
  const int total_;
  std::mutex mu_;
  int done_ = 0;
  std::string fatal_;  // the first helper's reason it could not compile at all
};

}  // namespace

Expected<TritonCompileReport> compileWithTriton(const std::string& module_text, const std::string& module_hash,
                                                const std::vector<SweepConfig>& configs,
                                                const TritonCompileOptions& options,
                                                const std::function<void(const CompileProgress&)>& progress,
                                                const std::atomic<bool>* cancel) {
  const auto t0 = std::chrono::steady_clock::now();
  TritonCompileReport report;
  const std::string program = pythonProgram(options.python);
  const auto python = findExecutable(program);
  if (!python) {
    return Error{(program.find('/') != std::string::npos ? program + " is not an executable file"
                                                         : "no " + program + " found in PATH") +
                 ": compiling Triton kernels needs a Python with PyTorch and Triton — " + installAdvice(options)};
  }
  report.python = *python;
  if (auto e = makeCompileCacheDir(options, report)) return *e;
  for (const auto& c : configs) {
    ConfigCompileReport r;
    r.config = c;
    r.error = "not compiled";
    report.configs.push_back(std::move(r));
  }
  if (configs.empty()) return report;
  TempFolder tmp;
  if (tmp.path.empty()) return Error{"cannot create a temporary folder for the compile helper"};
  auto share = writeHelperRequests(tmp, module_text, module_hash, configs, options, report);
  if (!share) return Error{share.error()};

  CompileHelperJobs helpers(program, *python, tmp, *share, options, progress, cancel, report);
  if (progress) progress(CompileProgress{0, static_cast<int>(configs.size()), nullptr});
  parallelFor(
      static_cast<std::size_t>(report.jobs), report.jobs, [&](std::size_t j) { helpers.run(j); }, nullptr);
  report.cancelled = cancel != nullptr && cancel->load();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool any_ok = std::any_of(report.configs.begin(), report.configs.end(), [](const auto& r) { return r.ok; });
  if (!helpers.fatal().empty() && !any_ok && !report.cancelled) return Error{helpers.fatal()};
  return report;
}

}  // namespace occx::triton
