#include "ui/models/inductor_run_actions.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <algorithm>

#include "core/base/atomic_file.h"
#include "core/gpu/gpu_data.h"
#include "core/triton/config_grid.h"
#include "core/triton/kernel_module.h"
#include "ui/models/csv_file.h"
#include "ui/models/text.h"

namespace occx::ui {

namespace {

/// The bundled module of `module` of bundled run `key` (":/inductor-runs/<key>/<module>.py"); empty when none.
QString bundledModulePath(const QString& key, const std::string& module) {
  if (key.isEmpty()) return {};
  const QString path = QStringLiteral(":/inductor-runs/%1/%2.py").arg(key, q(module));
  return QFile::exists(path) ? path : QString();
}

bool isSweptKind(const std::string& kind) {
  return kind == triton::kernelKindName(triton::KernelKind::kLoopedReduction) ||
         kind == triton::kernelKindName(triton::KernelKind::kPersistentReduction);
}

bool sameTile(const triton::ScanRow& a, const triton::ScanRow& b) {
  return a.xblock == b.xblock && a.r0_block == b.r0_block && a.r1_block == b.r1_block && a.num_warps == b.num_warps &&
         a.num_stages == b.num_stages;
}

}  // namespace

RunPathKind runPathKindOf(const QString& path) {
  switch (openTargetFor(path)) {
    case OpenTarget::kLiveSweep:
      return RunPathKind::kLiveSweepCsv;
    case OpenTarget::kCompileSweep:
      return RunPathKind::kCompileSweepCsv;
    case OpenTarget::kMeasurements:
      return RunPathKind::kMeasurementsCsv;
    case OpenTarget::kProfilerTrace:
      return RunPathKind::kProfilerTrace;
    case OpenTarget::kInductorRun:
      break;
  }
  const QFileInfo info(path);
  return info.isFile() && info.suffix().compare(QStringLiteral("csv"), Qt::CaseInsensitive) == 0 ? RunPathKind::kScanCsv
                                                                                                 : RunPathKind::kScan;
}

QString runUnavailableReason(const InductorRunData& data, bool bundled, const Backend* backend) {
  if (data.rows.empty()) return QObject::tr("Open an Inductor cache folder first.");
  if (!data.scanned) {
    return bundled ? QObject::tr(
                         "A bundled run has no cubins: open the run's folder (its Inductor cache) to run its "
                         "compiled configs.")
                   : QObject::tr(
                         "Opened from a CSV: open the run's folder (its Inductor cache) to run its compiled configs.");
  }
  if (backend == nullptr) return QObject::tr("No GPU backend in this build.");
  const Availability a = backend->liveAvailability();
  if (!a.available) return q(a.reason);
  return {};
}

QString sweepUnavailableReason(const InductorRunData& data, const RunKernelEntry* kernel, const QString& bundled_key) {
  if (kernel == nullptr) return QObject::tr("Select a kernel first.");
  if (!isSweptKind(kernel->kind)) {
    return QObject::tr("Only looped and persistent reductions can be swept (this is a %1 kernel).")
        .arg(q(kernel->kind));
  }
  if (data.scanned) return {};
  if (!bundledModulePath(bundled_key, kernel->module).isEmpty()) return {};
  return QObject::tr(
      "Opened from a CSV: open the run's folder (its Inductor cache) to sweep its kernels — a sweep compiles the "
      "kernel's module.");
}

std::vector<const triton::RunKernel*> kernelsToMeasure(const InductorRunData& data, const RunKernelEntry* kernel) {
  std::vector<const triton::RunKernel*> kernels;
  if (!data.scanned) return kernels;
  for (const auto& rk : data.scanned->kernels) {
    if (rk.configs.empty()) continue;
    if (kernel == nullptr || (rk.module.name == kernel->kernel && rk.module.module_hash == kernel->module))
      kernels.push_back(&rk);
  }
  return kernels;
}

Expected<SweepInput> sweepInputOf(const InductorRunData& data, const RunKernelEntry& kernel,
                                  const QString& bundled_key) {
  SweepInput input;
  bool found = false;
  if (data.scanned) {
    for (const auto& rk : data.scanned->kernels) {
      if (rk.module.name == kernel.kernel && rk.module.module_hash == kernel.module) {
        input.kernel = rk;
        found = true;
      }
    }
    if (found) {
      auto text = readFile(input.kernel.module.path);
      if (!text) {
        return Error{QObject::tr("The kernel's module %1 cannot be read: %2")
                         .arg(q(input.kernel.module.path), q(text.error()))
                         .toStdString()};
      }
      input.module_text = std::move(*text);
    }
  } else if (const QString path = bundledModulePath(bundled_key, kernel.module); !path.isEmpty()) {
    QFile f(path);
    if (f.open(QIODevice::ReadOnly)) {
      const QByteArray bytes = f.readAll();
      input.module_text.assign(bytes.constData(), static_cast<std::size_t>(bytes.size()));
      auto parsed = triton::parseKernelModule(input.module_text, kernel.module + ".py");
      if (parsed) {
        input.kernel = triton::analyseKernel(std::move(*parsed), {}, std::nullopt, GpuDatabase::builtin());
        found = true;
      }
    }
  }
  if (!found) return Error{QObject::tr("The kernel %1 is not in the run's scan.").arg(q(kernel.kernel)).toStdString()};
  return input;
}

Expected<triton::KernelSweepOptions> sweepOptionsOf(const triton::RunKernel& kernel, const QString& grid,
                                                    const QString& python) {
  triton::KernelSweepOptions options = sweepCompileOptionsOf(
      python, QObject::tr("choose another Python in the Python box next to the Grid box (empty: $OCCX_PYTHON, else "
                          "python3)"));
  if (const QString text = grid.trimmed(); text.isEmpty()) {
    options.grid = triton::defaultConfigGrid(kernel);
  } else {
    auto g = triton::parseConfigGrid({text.toStdString()}, kernel);
    if (!g) return Error{q(g.error()).replace(QStringLiteral("--grid "), QStringLiteral("Grid: ")).toStdString()};
    options.grid = *g;
  }
  return options;
}

triton::KernelSweepOptions sweepCompileOptionsOf(const QString& python, const QString& choose_python) {
  triton::KernelSweepOptions options;
  options.policies = true;
  options.compile.python = python.trimmed().toStdString();
  options.compile.choose_python = choose_python.toStdString();
  options.compile.choose_cache =
      QObject::tr("start the app with HOME set (the sweeps' Triton cache is ~/.cache/occupancy-explorer/triton)")
          .toStdString();
  return options;
}

step::ModelSweepOptions modelSweepOptionsOf(const QString& python, double budget_min, triton::SweepCache* cache) {
  step::ModelSweepOptions options;
  options.budget_s = budget_min > 0 ? 60.0 * budget_min : 0.0;
  // Each kernel's grid is its default one (sweepModel sets it).
  options.sweep = sweepCompileOptionsOf(
      python, QObject::tr("choose another Python in the Python box of the Sweep tab (empty: $OCCX_PYTHON, else "
                          "python3)"));
  options.sweep.screen = triton::ScreenPass{triton::briefScreenOptions(options.sweep.run.run), 8.0};
  options.sweep.cache = cache;
  return options;
}

QString modelSweepUnavailableReason(const step::StepProfile* step, const triton::InductorRun* run,
                                    std::size_t targets) {
  if (step == nullptr)
    return QObject::tr(
        "Open a profiler trace of your step first: its reductions are swept in "
        "order of their in-step time.");
  if (run == nullptr) {
    return QObject::tr(
        "The run shown has no kernel modules on disk (a bundled run keeps them inside the app, a scan CSV has "
        "none): open the run's folder (its Inductor cache) to sweep the step. Sweep this kernel (Configs tab) "
        "sweeps one kernel of a bundled run.");
  }
  if (targets == 0) {
    return QObject::tr("No looped reduction of the step matched a kernel of the run shown: nothing to sweep.");
  }
  return {};
}

QString mergeSweep(InductorRunData& data, const triton::KernelSweepResult& result, const QString& label) {
  const std::string& name = result.kernel.module.name;
  const std::string& module = result.kernel.module.module_hash;
  auto& rows = data.rows;
  auto last = std::find_if(rows.rbegin(), rows.rend(),
                           [&](const triton::ScanRow& r) { return r.kernel == name && r.module == module; });
  if (last == rows.rend()) return QObject::tr("The swept kernel %1 is not in the run shown any more.").arg(q(name));
  // The kernel's rows, again, with every config the sweep compiled. Rows the run has keep what it
  // knew (the winner, a bundled run's origins); the sweep's new configs follow them.
  triton::InductorRun one;
  one.kernels.push_back(result.kernel);
  std::vector<triton::ScanRow> added;
  for (auto& r : triton::scanRows(one)) {
    if (!r.num_warps) continue;
    const bool known = std::any_of(rows.begin(), rows.end(), [&](const triton::ScanRow& o) {
      return o.kernel == name && o.module == module && sameTile(o, r);
    });
    if (known) continue;
    r.origin = std::string(triton::kSweptOrigin);  // the sweep compiled it, not Inductor
    added.push_back(std::move(r));
  }
  rows.insert(last.base(), added.begin(), added.end());
  groupKernels(data);
  data.summary = summaryOfRows(data.rows);
  if (data.scanned) {
    auto copy = std::make_shared<triton::InductorRun>(*data.scanned);
    for (auto& k : copy->kernels) {
      if (k.module.name == name && k.module.module_hash == module) k = result.kernel;
    }
    data.scanned = copy;
  }
  if (result.measured) mergeMeasured(data, result.runs, label);
  return {};
}

int preferredKernel(const InductorRunData& data) {
  int first = -1;  // the looped reduction the scaling added most to, then the one with the most configs
  auto rank = [](const RunKernelEntry& k) { return std::make_pair(k.added, k.compiledConfigs()); };
  for (std::size_t i = 0; i < data.kernels.size(); ++i) {
    const RunKernelEntry& k = data.kernels[i];
    if (k.kind != triton::kernelKindName(triton::KernelKind::kLoopedReduction)) continue;
    if (first < 0 || rank(k) > rank(data.kernels[static_cast<std::size_t>(first)])) first = static_cast<int>(i);
  }
  if (first < 0 && !data.kernels.empty()) first = 0;
  return first;
}

int kernelIndexOf(const InductorRunData& data, const std::string& name, const std::string& module) {
  for (std::size_t i = 0; i < data.kernels.size(); ++i) {
    if (data.kernels[i].kernel == name && data.kernels[i].module == module) return static_cast<int>(i);
  }
  return -1;
}

InductorRunData kernelRunData(const InductorRunData& data, const RunKernelEntry& kernel) {
  InductorRunData one;
  one.title = data.title + QStringLiteral(" — ") + q(kernel.kernel);
  one.origin = data.origin;
  one.rows = kernel.configs;
  one.summary = summaryOfRows(one.rows);
  return one;
}

std::vector<triton::ScanRow> compiledConfigsOf(const RunKernelEntry& kernel) {
  std::vector<triton::ScanRow> configs;
  for (const auto& r : kernel.configs) {
    if (r.num_warps) configs.push_back(r);
  }
  return configs;
}

int winnerConfigRow(const RunKernelEntry& kernel) {
  int start = 0;
  for (int i = 0, row = 0; i < static_cast<int>(kernel.configs.size()); ++i) {
    if (!kernel.configs[static_cast<std::size_t>(i)].num_warps) continue;
    if (i == kernel.winner) start = row;
    ++row;
  }
  return start;
}

std::map<std::pair<std::string, std::string>, double> inStepTimesOf(const step::StepProfile* profile) {
  std::map<std::pair<std::string, std::string>, double> times;
  if (profile == nullptr) return times;
  for (const auto& k : profile->kernels) {
    if (k.match == step::RunMatch::kMatched) times[{k.name, k.module}] += k.per_step_us;
  }
  return times;
}

QString bundledTracePath(const QString& key) {
  if (key.isEmpty()) return {};
  const QString path = QStringLiteral(":/inductor-runs/%1.pt.trace.json.gz").arg(key);
  return QFile::exists(path) ? path : QString();
}

}  // namespace occx::ui
