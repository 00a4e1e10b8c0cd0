#include "ui/models/inductor_run_data.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <algorithm>
#include <charconv>
#include <map>

#include "core/triton/kernel_module.h"
#include "ui/models/csv_file.h"

namespace occx::ui {

namespace {

using triton::ScanRow;

const char* const kBundlePrefix = ":/inductor-runs/";

KernelSource sourceOf(const triton::KernelModule& m) {
  KernelSource s;
  s.text = m.source;
  s.first_line = m.source_first_line;
  s.tile_lines = m.tile_lines;
  return s;
}

// "x=512, r0_=8192" → the value of `name`, or `fallback`.
std::int64_t hintOf(const std::string& text, const std::string& name, std::int64_t fallback) {
  const std::string key = name + "=";
  std::size_t at = 0;
  while ((at = text.find(key, at)) != std::string::npos) {
    if (at == 0 || text[at - 1] == ' ') {
      std::int64_t v = 0;
      const char* begin = text.data() + at + key.size();
      auto [ptr, ec] = std::from_chars(begin, text.data() + text.size(), v);
      if (ec == std::errc{} && ptr != begin) return v;
    }
    at += key.size();
  }
  return fallback;
}

}  // namespace

int RunKernelEntry::compiledConfigs() const {
  int n = 0;
  for (const auto& r : configs) n += r.num_warps ? 1 : 0;
  return n;
}

int RunKernelEntry::sweptConfigs() const {
  int n = 0;
  for (const auto& r : configs) n += r.num_warps && r.origin == triton::kSweptOrigin ? 1 : 0;
  return n;
}

const ScanRow* RunKernelEntry::winnerRow() const {
  return winner >= 0 && winner < static_cast<int>(configs.size()) ? &configs[static_cast<std::size_t>(winner)]
                                                                  : nullptr;
}

QString summaryOfRows(const std::vector<ScanRow>& rows) {
  return QString::fromStdString(triton::summarizeRows(rows).text());
}

void groupKernels(InductorRunData& data) {
  data.kernels.clear();
  std::string last_key;
  for (const auto& r : data.rows) {
    const std::string key = r.device + "|" + r.kernel + "|" + r.module;
    if (key != last_key || data.kernels.empty()) {
      last_key = key;
      RunKernelEntry e;
      e.device = r.device;
      e.kernel = r.kernel;
      e.module = r.module;
      e.kind = r.kind;
      e.size_hints = r.size_hints;
      data.kernels.push_back(std::move(e));
    }
    RunKernelEntry& e = data.kernels.back();
    if (r.winner) e.winner = static_cast<int>(e.configs.size());
    if (r.origin == triton::configOriginName(triton::ConfigOrigin::kAddedByScaling)) ++e.added;
    e.bounds_disagree = e.bounds_disagree || r.bounds_disagree;
    e.over_spill_threshold = e.over_spill_threshold || r.over_spill_threshold;
    if (r.n_spills) e.max_spills = std::max(e.max_spills.value_or(0), *r.n_spills);
    e.configs.push_back(r);
  }
  data.summary = summaryOfRows(data.rows);
}

InductorRunData runDataFromScan(const triton::InductorRun& run) {
  InductorRunData data;
  data.title = QFileInfo(QString::fromStdString(run.input)).fileName();
  if (data.title.isEmpty()) data.title = QString::fromStdString(run.input);
  data.origin = QObject::tr("scan of %1").arg(QDir::toNativeSeparators(QString::fromStdString(run.input)));
  data.rows = triton::scanRows(run);
  for (const auto& k : run.kernels) data.sources[k.module.module_hash] = sourceOf(k.module);
  data.problems = run.problems;
  data.missing_source_note = QObject::tr("The module of this kernel could not be read.");
  groupKernels(data);
  return data;
}

InductorRunData runDataFromScan(std::shared_ptr<const triton::InductorRun> run) {
  InductorRunData data = runDataFromScan(*run);
  data.scanned = std::move(run);
  return data;
}

Expected<InductorRunData> runDataFromCsv(const QString& path) {
  auto table = readCsvTable(path);
  if (!table) return Error{table.error()};
  const std::string name = QFileInfo(path).fileName().toStdString();
  auto rows = triton::scanFromCsv(*table);
  if (!rows) return Error{name + ": " + rows.error()};
  InductorRunData data;
  const std::string title = table->metaValue("title");
  data.title = title.empty() ? QFileInfo(path).completeBaseName() : QString::fromStdString(title);
  data.origin = QObject::tr("CSV file %1").arg(QDir::toNativeSeparators(path));
  data.rows = std::move(rows).value();
  data.missing_source_note = QObject::tr("The source is not in the CSV: open the Inductor cache folder to see it.");
  groupKernels(data);
  return data;
}

std::vector<BundledRun> bundledInductorRuns() {
  // The model runs first, then the reductions of the reference table, then the special cases.
  static const char* const kOrder[] = {"blenderbot",
                                       "gpt2",
                                       "bert",
                                       "t5",
                                       "spill_log_softmax",
                                       "spill_log_softmax_w16",
                                       "ref_sum",
                                       "ref_mean_var",
                                       "ref_log_softmax",
                                       "ref_log_softmax_vocab",
                                       "ref_layer_norm_bwd",
                                       "coordesc_sum",
                                       "dynamic_log_softmax"};
  std::vector<BundledRun> runs;
  QStringList keys;
  for (const char* k : kOrder) keys << QString::fromLatin1(k);
  QDirIterator it(QString::fromLatin1(kBundlePrefix), {QStringLiteral("*.csv")}, QDir::Files);
  QStringList found;
  while (it.hasNext()) found << QFileInfo(it.next()).completeBaseName();
  found.sort();
  for (const QString& f : found) {
    if (!keys.contains(f)) keys << f;
  }
  for (const QString& key : keys) {
    const QString path = QString::fromLatin1(kBundlePrefix) + key + QStringLiteral(".csv");
    if (!QFile::exists(path)) continue;
    QFile file(path);
    QString title = key;
    if (file.open(QIODevice::ReadOnly)) {
      const QString first = QString::fromUtf8(file.readLine()).trimmed();
      if (first.startsWith(QStringLiteral("# title: "))) title = first.mid(9);
    }
    runs.push_back({key, title});
  }
  return runs;
}

Expected<InductorRunData> loadBundledRun(const QString& key) {
  const QString path = QString::fromLatin1(kBundlePrefix) + key + QStringLiteral(".csv");
  if (!QFile::exists(path)) {
    QStringList keys;
    for (const auto& r : bundledInductorRuns()) keys << r.key;
    return Error{"no bundled Inductor run '" + key.toStdString() + "': allowed " +
                 keys.join(QStringLiteral(", ")).toStdString()};
  }
  auto data = runDataFromCsv(path);
  if (!data) return data;
  data->origin = QObject::tr("bundled run (recorded on an H200 with PyTorch 2.11 and Triton 3.6)");
  QDirIterator it(QString::fromLatin1(kBundlePrefix) + key, {QStringLiteral("*.py")}, QDir::Files);
  while (it.hasNext()) {
    const QString module = it.next();
    QFile f(module);
    if (!f.open(QIODevice::ReadOnly)) continue;
    const QByteArray text = f.readAll();
    auto parsed = triton::parseKernelModule(std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
                                            module.toStdString());
    if (parsed) data->sources[parsed->module_hash] = sourceOf(*parsed);
  }
  data->missing_source_note = QObject::tr("This kernel's module is not bundled.");
  // H200 measurements of the run's own configs, when bundled (":/inductor-runs/measured/<key>.csv").
  const QString measured =
      QString::fromLatin1(kBundlePrefix) + QStringLiteral("measured/") + key + QStringLiteral(".csv");
  if (QFile::exists(measured)) {
    auto runs = measurementsFromFile(measured);
    if (!runs) return Error{runs.error()};
    mergeMeasured(*data, *runs, measuredLabelOf(*runs) + QObject::tr(" — bundled"));
  }
  return data;
}

bool measuredRowMatches(const triton::MeasuredConfig& m, const ScanRow& row) {
  auto same = [](const std::optional<std::int64_t>& v, int want, int absent) { return v.value_or(absent) == want; };
  return m.kernel == row.kernel && m.module == row.module && same(row.xblock, m.xblock, 0) &&
         same(row.r0_block, m.r0_block, 0) && same(row.num_warps, m.num_warps, 0) &&
         same(row.num_stages, m.num_stages, 1);
}

const triton::MeasuredConfig* measuredRowOf(const InductorRunData& data, const ScanRow& row) {
  for (const auto& m : data.measured.rows) {
    if (measuredRowMatches(m, row)) return &m;
  }
  return nullptr;
}

const triton::KernelPicks* measuredPicksOf(const InductorRunData& data, const std::string& kernel,
                                           const std::string& module) {
  for (const auto& p : data.measured.picks) {
    if (p.kernel == kernel && p.module == module) return &p;
  }
  return nullptr;
}

QString measuredLabelOf(const triton::KernelMeasurements& result) {
  std::string device;
  std::string date;
  for (const auto& [key, value] : result.meta) {
    if (key == "device") device = value;
    if (key == "date") date = value.substr(0, 10);
  }
  if (device.empty() && !result.rows.empty()) device = result.rows.front().device;
  QString text =
      QObject::tr("measured on %1").arg(device.empty() ? QObject::tr("a GPU") : QString::fromStdString(device));
  if (!date.empty()) text += QStringLiteral(" (%1)").arg(QString::fromStdString(date));
  return text;
}

namespace {

// A row of the scan table for config `m`, which a sweep compiled and measured but the run does
// not list: the kernel's `last` row with what the measurement recorded of the config.
triton::ScanRow rowOfMeasuredConfig(const triton::MeasuredConfig& m, triton::ScanRow row) {
  row.xblock = m.xblock;
  row.r0_block = m.r0_block > 0 ? std::optional<std::int64_t>(m.r0_block) : std::nullopt;
  row.shared_bytes = std::nullopt;  // not in the measurement
  row.r1_block = m.r1_block > 0 ? std::optional<std::int64_t>(m.r1_block) : std::nullopt;
  row.num_warps = m.num_warps;
  row.num_stages = m.num_stages;
  row.n_regs = m.n_regs >= 0 ? std::optional<std::int64_t>(m.n_regs) : std::nullopt;
  row.n_spills = m.n_spills >= 0 ? std::optional<std::int64_t>(m.n_spills) : std::nullopt;
  row.local_bytes = m.n_spills >= 0 ? std::optional<std::int64_t>(std::int64_t{m.n_spills} * 4) : std::nullopt;
  row.occupancy_pct = m.occupancy_pct >= 0 ? std::optional<double>(m.occupancy_pct) : std::nullopt;
  row.origin = std::string(triton::kSweptOrigin);  // a config the run does not list: a sweep compiled it
  row.winner = m.winner;
  row.halved_from.clear();
  row.blocks_per_sm = m.measured.driver_active_blocks_per_sm >= 0
                          ? std::optional<std::int64_t>(m.measured.driver_active_blocks_per_sm)
                          : std::nullopt;
  row.limiter.clear();
  row.triton_cache_hash.clear();
  row.over_spill_threshold = m.over_spill_threshold;
  const std::map<std::string, std::pair<std::string*, std::string*>> by_key = {
      {"old", {&row.old_decision, &row.old_reason}},
      {"new", {&row.new_decision, &row.new_reason}},
      {"review_min", {&row.review_min_decision, &row.review_min_reason}},
      {"exact", {&row.exact_decision, &row.exact_reason}},
      {"spills", {&row.spills_decision, &row.spills_reason}}};
  const auto& policies = inductor::kPolicies;
  for (std::size_t i = 0; i < policies.size(); ++i) {
    auto it = by_key.find(std::string(inductor::policyKey(policies[i])));
    if (it == by_key.end()) continue;
    *it->second.first = i < m.decisions.size() ? m.decisions[i] : std::string();
    *it->second.second = QObject::tr("from the measurement (%1): the reason is not recorded")
                             .arg(QString::fromStdString(m.swept_for.empty() ? m.origin : "swept for " + m.swept_for))
                             .toStdString();
  }
  row.bounds_disagree = false;
  row.notes = m.swept_for.empty() ? std::string() : "compiled by a sweep (" + m.swept_for + ")";
  return row;
}

}  // namespace

QString mergeMeasured(InductorRunData& data, const triton::KernelMeasurements& result, const QString& label) {
  auto inRun = [&data](const triton::MeasuredConfig& m) {
    for (const auto& k : data.kernels) {
      if (k.kernel == m.kernel && k.module == m.module) return true;
    }
    return false;
  };
  std::vector<triton::MeasuredConfig> incoming;
  for (const auto& m : result.rows) {
    if (inRun(m)) incoming.push_back(m);
  }
  if (incoming.empty()) {
    std::string input;
    for (const auto& [key, value] : result.meta) {
      if (key == "input") input = value;
    }
    return QObject::tr(
               "None of these measured kernels is in the run shown: open the run they were measured on first (%1).")
        .arg(input.empty() ? QObject::tr("its input is not recorded") : QString::fromStdString(input));
  }
  // Configs measured that the run does not list (a sweep compiled them): rows of their own, from
  // what the measurement recorded, after the kernel's other rows.
  bool added = false;
  for (const auto& m : incoming) {
    if (m.measured.status == RunStatus::kCompileFailed) continue;  // no compiled config: the measurement's row says why
    if (std::any_of(data.rows.begin(), data.rows.end(),
                    [&m](const triton::ScanRow& r) { return measuredRowMatches(m, r); }))
      continue;
    auto last = std::find_if(data.rows.rbegin(), data.rows.rend(),
                             [&m](const triton::ScanRow& r) { return r.kernel == m.kernel && r.module == m.module; });
    if (last == data.rows.rend()) continue;
    triton::ScanRow row = rowOfMeasuredConfig(m, *last);
    data.rows.insert(last.base(), std::move(row));
    added = true;
  }
  if (added) {
    groupKernels(data);
    data.summary = summaryOfRows(data.rows);
  }
  std::vector<triton::MeasuredConfig> kept;
  for (const auto& m : data.measured.rows) {
    const bool replaced = std::any_of(incoming.begin(), incoming.end(), [&m](const triton::MeasuredConfig& n) {
      return n.kernel == m.kernel && n.module == m.module;
    });
    if (!replaced) kept.push_back(m);
  }
  kept.insert(kept.end(), incoming.begin(), incoming.end());
  data.measured.rows = std::move(kept);
  data.measured.picks = triton::summarizeMeasurements(data.measured.rows);
  data.measured.meta = result.meta;
  data.measured.notes.insert(data.measured.notes.end(), result.notes.begin(), result.notes.end());
  data.measured.cancelled = result.cancelled;
  data.measured_label = label;
  return {};
}

Expected<triton::KernelMeasurements> measurementsFromFile(const QString& path) {
  auto table = readCsvTable(path);
  if (!table) return Error{table.error()};
  const std::string name = QFileInfo(path).fileName().toStdString();
  auto result = triton::measurementsFromCsv(*table);
  if (!result) return Error{name + ": " + result.error()};
  return result;
}

CsvTable runDataToCsv(const InductorRunData& data) {
  return columnsToCsv(triton::scanColumns(), data.rows,
                      {{std::string(triton::kScanFormatKey), std::string(triton::kScanFormatValue)},
                       {"title", data.title.toStdString()},
                       {"input", data.origin.toStdString()},
                       {"summary", data.summary.toStdString()}});
}

std::optional<Device> deviceOfRow(const ScanRow& row) {
  if (row.cc.empty() || !row.sm_count) return std::nullopt;
  auto cc = ComputeCapability::parse(row.cc);
  if (!cc) return std::nullopt;
  const ArchLimits* arch = GpuDatabase::builtin().findArch(*cc);
  if (arch == nullptr) return std::nullopt;
  auto dev = makeDevice(*arch, static_cast<int>(*row.sm_count), row.device);
  if (!dev) return std::nullopt;
  return dev.value();
}

std::optional<std::pair<inductor::ReductionConfig, inductor::KernelInfo>> decisionInputsOfRow(const ScanRow& row) {
  if (!row.num_warps || !row.r0_block || !row.xblock) return std::nullopt;
  inductor::ReductionConfig c;
  c.xblock = static_cast<int>(*row.xblock);
  c.r0_block = static_cast<int>(*row.r0_block);
  c.r1_block = row.r1_block ? static_cast<int>(*row.r1_block) : 0;
  c.num_warps = static_cast<int>(*row.num_warps);
  c.num_stages = row.num_stages ? static_cast<int>(*row.num_stages) : 1;
  if (row.n_regs) c.n_regs = static_cast<int>(*row.n_regs);
  if (row.n_spills) c.n_spills = static_cast<int>(*row.n_spills);
  c.shared_bytes = row.shared_bytes.value_or(0);
  inductor::KernelInfo k;
  k.size_hints.x = hintOf(row.size_hints, "x", 1);
  k.size_hints.r0 = hintOf(row.size_hints, "r0_", 1);
  k.size_hints.r1 = hintOf(row.size_hints, "r1_", 0);
  k.persistent_reduction = row.kind == triton::kernelKindName(triton::KernelKind::kPersistentReduction);
  k.is_reduction = true;
  return std::make_pair(c, k);
}

}  // namespace occx::ui
