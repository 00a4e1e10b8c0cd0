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
  report.cache_dir = options.cache_dir.empty() ? defaultSweepCacheDir() : options.cache_dir;
  if (report.cache_dir.empty())
    return Error{"no folder for the compiled configs: HOME is not set; give one with --cache DIR"};
  std::error_code ec;
  fs::create_directories(report.cache_dir, ec);
  if (ec) return Error{"cannot create the Triton cache folder " + report.cache_dir + ": " + ec.message()};
  report.cache_dir = fs::absolute(report.cache_dir, ec).string();
  for (const auto& c : configs) {
    ConfigCompileReport r;
    r.config = c;
    r.error = "not compiled";
    report.configs.push_back(std::move(r));
  }
  if (configs.empty()) return report;
  TempFolder tmp;
  if (tmp.path.empty()) return Error{"cannot create a temporary folder for the compile helper"};
  const std::string helper = tmp.path + "/triton_compile_configs.py";
  const std::string module = tmp.path + "/" + module_hash + ".py";
  if (auto w = writeFileAtomically(helper, resources::tritonCompileHelperPython()); !w) return Error{w.error()};
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
    if (auto w = writeFileAtomically(tmp.path + "/request-" + std::to_string(j) + ".json", request.dump()); !w)
      return Error{w.error()};
  }

  std::mutex mu;
  int done = 0;
  std::string fatal;  // the first helper's reason it could not compile at all
  if (progress) progress(CompileProgress{0, static_cast<int>(configs.size()), nullptr});
  parallelFor(
      static_cast<std::size_t>(jobs), jobs,
      [&](std::size_t j) {
        const auto& mine = share[j];
        std::vector<bool> reported(mine.size(), false);
        SpawnSpec spec;
        spec.program = *python;
        spec.what = *python;
        spec.arguments = {helper, tmp.path + "/request-" + std::to_string(j) + ".json"};
        spec.environment = {{"CUDA_VISIBLE_DEVICES", ""}, {"PYTHONDONTWRITEBYTECODE", "1"}, {"PYTHONUNBUFFERED", "1"}};
        std::string helper_error;
        auto outcome = runProcess(
            spec,
            [&](std::string_view line) {
              json m = json::parse(line, nullptr, false);
              if (!m.is_object()) return;
              try {
                const std::string event = m.value("event", std::string());
                std::lock_guard<std::mutex> lock(mu);
                if (event == "start") {
                  report.python_version = m.value("python", std::string());
                  report.torch_version = m.value("torch", std::string());
                  report.triton_version = m.value("triton", std::string());
                  report.target = m.value("target", std::string());
                  report.import_seconds = std::max(report.import_seconds, m.value("import_seconds", 0.0));
                } else if (event == "error") {
                  const std::string missing = m.value("missing", std::string());
                  const std::string why = m.value("error", std::string());
                  helper_error = missing.empty()
                                     ? why
                                     : program + " (" + *python + ") cannot import " + missing + " (" + why +
                                           "): compiling Triton kernels needs PyTorch and Triton in that Python — " +
                                           installAdvice(options);
                } else if (event == "config") {
                  const int index = integerValue(m, "index", -1).value_or(-1);
                  if (index < 0 || static_cast<std::size_t>(index) >= mine.size()) return;
                  // Read every field first (a field of another type throws here, before anything is set).
                  auto text = [&m](const char* key, const std::string& fallback) {
                    auto it = m.find(key);
                    return it != m.end() && it->is_string() ? it->get<std::string>() : fallback;
                  };
                  ConfigCompileReport got;
                  got.config = report.configs[mine[static_cast<std::size_t>(index)]].config;
                  got.ok = m.value("ok", false);
                  got.error = got.ok ? std::string() : text("error", "no reason given");
                  got.seconds = m.value("seconds", 0.0);
                  got.how = text("how", "");
                  got.triton_cache_hash = text("triton_cache_hash", "");
                  got.folder = text("folder", "");
                  got.shared_bytes = integerValue(m, "shared", std::int64_t{0}).value_or(0);
                  ConfigCompileReport& r = report.configs[mine[static_cast<std::size_t>(index)]];
                  r = std::move(got);
                  reported[static_cast<std::size_t>(index)] = true;
                  ++done;
                  if (progress) progress(CompileProgress{done, static_cast<int>(configs.size()), &r});
                }
              } catch (const json::exception&) {
                // a line of another shape (a warning printed on stdout): not ours
              }
            },
            options.timeout_s > 0 ? options.timeout_s * static_cast<double>(std::max<std::size_t>(1, mine.size()))
                                  : 0.0,
            cancel);
        std::lock_guard<std::mutex> lock(mu);
        std::string why;
        if (!outcome) {
          why = outcome.error();
        } else if (outcome->cancelled) {
          why = "cancelled";
        } else if (outcome->timed_out) {
          why = "the compile helper was stopped after " + std::to_string(static_cast<int>(options.timeout_s)) +
                " s per config";
        } else if (!helper_error.empty()) {
          why = helper_error;
        } else if (outcome->exit_code != 0) {
          why = "the compile helper " + outcome->ended + ": " + lastLine(outcome->stderr_text);
        }
        if (!helper_error.empty() && fatal.empty()) fatal = helper_error;
        if (!outcome && fatal.empty()) fatal = outcome.error();
        for (std::size_t i = 0; i < mine.size(); ++i) {
          if (!reported[i]) report.configs[mine[i]].error = why.empty() ? "the compile helper did not report it" : why;
        }
      },
      nullptr);
  report.cancelled = cancel != nullptr && cancel->load();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool any_ok = std::any_of(report.configs.begin(), report.configs.end(), [](const auto& r) { return r.ok; });
  if (!fatal.empty() && !any_ok && !report.cancelled) return Error{fatal};
  return report;
}

}  // namespace occx::triton
