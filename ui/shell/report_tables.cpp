#include "ui/shell/report_tables.h"

#include <QCoreApplication>
#include <algorithm>
#include <cctype>
#include <functional>
#include <iterator>
#include <limits>
#include <map>

#include "core/base/columns.h"

namespace occx::ui {

namespace {

QString trReport(const char* text) {
  return QCoreApplication::translate("occx::ui::Report", text);
}

/// Display names of CSV columns and metadata keys, with units. One list for every table, so a
/// key reads the same wherever it appears.
constexpr std::pair<std::string_view, const char*> kReportLabels[] = {
    // The GPU and the launch configuration.
    {"target", "GPU"},
    {"device", "GPU"},
    {"sweep_device", "GPU"},
    {"family_device", "GPU of the family sweep"},
    {"driver_device", "GPU the driver answered for"},
    {"compute_capability", "Compute capability"},
    {"cc", "Compute capability"},
    {"sweep_arch", "Architecture"},
    {"family", "Architecture family"},
    {"sm_count", "SMs"},
    {"l2_bytes", "L2 cache (bytes)"},
    {"driver", "Driver"},
    {"driver_cuda_version", "Driver's CUDA version"},
    {"toolkit", "Compiler"},
    {"date_utc", "Measured (UTC)"},
    {"family_date_utc", "Family sweep measured (UTC)"},
    {"recorded", "Recorded"},
    {"workload", "Workload"},
    {"dtype", "Data type"},
    {"xnumel", "xnumel (rows)"},
    {"rnumel", "rnumel (reduction length)"},
    {"r0_numel", "r0_numel (reduction length)"},
    {"size_hints", "Size hints"},
    {"size_hint_x", "Size hint x"},
    {"reduction_hint", "Reduction hint"},
    {"config", "Config"},
    {"threads_per_block", "Threads per block"},
    {"block_size_threads", "Threads per block"},
    {"registers_per_thread", "Registers per thread"},
    {"n_regs", "Registers per thread (n_regs)"},
    {"static_smem_bytes", "Static shared memory (bytes)"},
    {"dynamic_smem_bytes", "Dynamic shared memory (bytes)"},
    {"smem_bytes", "Shared memory (bytes)"},
    {"shared_bytes", "Shared memory (bytes)"},
    {"shared_memory_per_block_bytes", "Shared memory per block (bytes)"},
    {"carveout_percent", "Shared-memory carveout (%)"},
    {"block_barriers", "Block barriers"},
    {"grid_blocks", "Grid (blocks)"},
    {"cluster_size", "Cluster size (blocks)"},
    {"cluster_layout", "Cluster layout"},
    {"non_portable_cluster_size_allowed", "Non-portable cluster sizes allowed"},
    {"title", "Run"},
    {"input", "Read from"},
    {"summary", "Summary"},
    {"triton_source", "Triton source"},
    {"search", "Search"},
    {"steps", "Steps"},
    {"steps_from", "Steps from"},
    {"gpu_time_per_step_us", "GPU time per step (µs)"},
    {"time", "Time"},
    // Results.
    {"can_launch", "Can launch"},
    {"cannot_launch_reason", "Why it cannot launch"},
    {"active_blocks_per_sm", "Active blocks per SM"},
    {"blocks_per_sm", "Active blocks per SM"},
    {"active_warps_per_sm", "Active warps per SM"},
    {"active_threads_per_sm", "Active threads per SM"},
    {"max_warps_per_sm", "Warps per SM (most)"},
    {"theoretical_occupancy_pct", "Occupancy (%)"},
    {"occupancy_pct", "Occupancy (%)"},
    {"achieved_occupancy_pct", "Achieved occupancy (%)"},
    {"block_limit_warps", "Blocks per SM by warps"},
    {"block_limit_blocks", "Blocks per SM by the block limit"},
    {"block_limit_registers", "Blocks per SM by registers"},
    {"block_limit_shared_memory", "Blocks per SM by shared memory"},
    {"block_limit_barriers", "Blocks per SM by barriers"},
    {"limited_by", "Limited by"},
    {"limiter", "Limited by"},
    {"registers_per_block_allocated", "Registers per block (allocated)"},
    {"shared_memory_per_block_allocated_bytes", "Shared memory per block, allocated (bytes)"},
    {"shared_memory_per_sm_config_bytes", "Shared memory per SM, as configured (bytes)"},
    {"max_active_blocks_gpu", "Active blocks on the GPU"},
    {"waves", "Waves"},
    {"blocks_per_sm_in_clusters", "Active blocks per SM in clusters"},
    {"max_active_clusters", "Active clusters (most)"},
    {"naive_max_active_clusters", "Active clusters, naive bound"},
    {"active_blocks_in_clusters", "Active blocks in clusters"},
    {"active_blocks_without_clusters", "Active blocks without clusters"},
    {"cluster_occupancy_pct", "Occupancy in clusters (%)"},
    {"max_potential_cluster_size", "Largest cluster size possible"},
    {"driver_max_active_clusters", "Active clusters, driver"},
    {"best_block_size_threads", "Best block size (threads)"},
    {"best_block_size_limit", "Best block size searched up to (threads)"},
    {"best_block_size_active_blocks_per_sm", "Best block size: active blocks per SM"},
    {"best_block_size_occupancy_pct", "Best block size: occupancy (%)"},
    {"best_block_size_min_grid_size", "Best block size: smallest full grid (blocks)"},
    {"driver_probe_registers", "Driver: registers per thread of its probe kernel"},
    {"driver_active_blocks_per_sm", "Driver: active blocks per SM"},
    {"driver_max_active_clusters_by_size", "Driver: active clusters"},
    {"driver_max_potential_cluster_size_portable", "Driver: largest portable cluster size"},
    {"driver_max_potential_cluster_size_nonportable", "Driver: largest non-portable cluster size"},
    {"driver_best_block_size", "Driver: best block size (threads)"},
    {"driver_best_min_grid_size", "Driver: smallest full grid (blocks)"},
    {"driver_note", "Driver: note"},
    // Kernels, configs and decisions.
    {"kernel", "Kernel"},
    {"module", "Module"},
    {"kind", "Kind"},
    {"XBLOCK", "XBLOCK"},
    {"xblock", "XBLOCK"},
    {"R0_BLOCK", "R0_BLOCK"},
    {"rblock", "RBLOCK"},
    {"num_warps", "num_warps"},
    {"num_stages", "num_stages"},
    {"n_spills", "Spilled registers (n_spills)"},
    {"local_bytes", "Local memory (bytes)"},
    {"origin", "Origin"},
    {"status", "Status"},
    {"winner", "Autotuner's pick"},
    {"old", "Old bound"},
    {"new", "New bound"},
    {"review_min", "Review-min bound"},
    {"exact", "Exact bound"},
    {"spills", "Spills rule"},
    {"time_us", "Time (µs)"},
    {"median_us", "Median time (µs)"},
    {"bandwidth_GBps", "Bandwidth (GB/s)"},
    {"regret", "Regret (× the best)"},
    {"policy", "Policy"},
    {"candidates", "Candidates"},
    {"benchmarked", "Benchmarked"},
    {"pick", "Pick"},
    {"profile", "Profile"},
    {"applies", "Applies"},
    {"bound_blocks_per_sm", "Bound (blocks per SM)"},
    {"capacity_blocks", "Blocks resident at once"},
    {"total_blocks", "Total blocks"},
    {"decision", "Decision"},
    {"new_config", "Config after the decision"},
    {"stage", "Stage"},
    {"autotuning", "Autotuning"},
    {"arch", "Architecture"},
    {"output_dtype", "Output data type"},
    {"shape", "Shape"},
    {"bytes_read", "Bytes read"},
    {"bytes_written", "Bytes written"},
    {"copy_bandwidth_GBps", "Copy bandwidth (GB/s)"},
    {"copy_bandwidth_method", "Copy bandwidth measured by"},
    {"inductor_profile", "Inductor profile"},
    {"spill_threshold", "Spill threshold"},
    {"time_figure", "Time figure"},
    {"timing", "Timing"},
    {"bandwidth", "Bandwidth figure"},
    {"wall_seconds", "Sweep took (s)"},
    {"category", "Kind"},
    {"launches_per_step", "Launches per step"},
    {"in_step_per_step_us", "Time per step (µs)"},
    {"in_step_median_us", "Median time per launch (µs)"},
    {"share_pct", "Share of the step (%)"},
    {"match", "In the run"},
    {"old_decision", "Old"},
    {"new_decision", "New"},
    {"review_min_decision", "Review-min"},
    {"exact_decision", "Exact"},
    {"spills_decision", "Spills rule"},
    {"spread_pct", "Spread (%)"},
    {"pct_of_copy", "Of the copy bandwidth (%)"},
    {"spill_stores_bytes", "Spill stores (bytes)"},
    {"spill_loads_bytes", "Spill loads (bytes)"},
    {"ours_time_us", "Family kernel (µs)"},
    {"triton_time_us", "Inductor's kernel (µs)"},
    {"triton_over_ours", "Inductor ÷ family"},
    {"ours_registers", "Family registers"},
    {"triton_registers", "Inductor registers"},
    {"ours_spills", "Family spills"},
    {"triton_spills", "Inductor spills"},
    {"triton_bandwidth_GBps", "Inductor bandwidth (GB/s)"},
    {"paired", "Configs measured on both"},
    {"median_ratio", "Median ratio"},
    {"entry", "Entry"},
    {"field", "Field"},
    {"value", "Value"},
    {"source", "Source"},
    {"run", "Run"},
    {"trace", "Trace"},
};

const std::map<std::string, const char*, std::less<>>& reportLabels() {
  static const std::map<std::string, const char*, std::less<>> labels(std::begin(kReportLabels),
                                                                      std::end(kReportLabels));
  return labels;
}

/// The chosen columns of one kind of table: the CSV keys a column reads (the first that the table
/// has), its display name (empty: reportLabel of the key), how its cell reads (empty: reportValue).
struct ColumnChoice {
  std::vector<std::string> keys;
  const char* name = nullptr;
  std::function<QString(const std::vector<std::string>& cells)> format;
};

struct TableChoice {
  std::string group_key;  ///< the column whose value heads a run of rows (empty: none)
  std::string sort_key;   ///< a number column the rows are shown by, smallest first (empty: as exported)
  bool quantity_value = false;
  std::vector<ColumnChoice> columns;
  const char* note = nullptr;
};

/// "X1 R2048 w16 s1": XBLOCK, R0_BLOCK (or RBLOCK), num_warps, num_stages, as the views write them.
QString configCell(const std::vector<std::string>& c) {
  // Two units that are never broken: the block sizes, then the warps and stages ("X1 R2048" over
  // "w16 s1" in a narrow column).
  const char* prefixes[] = {"X", "R", "R1=", "w", "s"};
  QStringList blocks;
  QStringList launch;
  for (std::size_t i = 0; i < c.size() && i < 5; ++i) {
    if (!c[i].empty()) (i < 3 ? blocks : launch) << QString::fromUtf8(prefixes[i]) + QString::fromStdString(c[i]);
  }
  return (blocks.join(QChar(0x00A0)) + QLatin1Char(' ') + launch.join(QChar(0x00A0))).trimmed();
}

ColumnChoice reportColumn(std::string key, const char* name = nullptr) {
  return ColumnChoice{{std::move(key)}, name, {}};
}

/// "candidate", "added by scaling, picked": where a config comes from, and whether the autotuner
/// picked it.
ColumnChoice originColumn() {
  return ColumnChoice{{"origin", "winner"}, "Origin", [](const std::vector<std::string>& c) {
                        QString text = QString::fromStdString(c[0]);
                        if (c.size() > 1 && c[1] == "1") text += trReport(", picked");
                        return text;
                      }};
}

ColumnChoice configColumn() {
  return ColumnChoice{{"XBLOCK", "R0_BLOCK", "R1_BLOCK", "num_warps", "num_stages"}, "Config", configCell};
}

const char* kConfigNote =
    "Config: X = XBLOCK, R = R0_BLOCK (RBLOCK), w = num_warps, s = num_stages. Spills: registers spilled "
    "(n_spills). Bounds: each policy's decision "
    "for the config (scale: halve R0_BLOCK; n/a: the policy does not apply).";

const char* kMeasuredNote =
    "Config: X = XBLOCK, R = R0_BLOCK, w = num_warps. Spills: registers spilled (n_spills). Picked: the autotuner's "
    "winner. Times: device time per "
    "launch, median of the timed runs (the CSV export says how they were taken).";

using TableChoices = std::vector<std::pair<const char*, TableChoice>>;

void addCalculatorAndRblockChoices(TableChoices& c) {
  c.push_back({"occupancy-result", TableChoice{{}, {}, true, {}, nullptr}});
  c.push_back(
      {"occupancy-barriers", TableChoice{{},
                                         {},
                                         false,
                                         {reportColumn("x", "Block barriers"), reportColumn("active_blocks_per_sm"),
                                          reportColumn("active_warps_per_sm"),
                                          reportColumn("theoretical_occupancy_pct"), reportColumn("limited_by")},
                                         nullptr}});
  c.push_back({"occupancy-clusters",
               TableChoice{{},
                           {},
                           false,
                           {reportColumn("cluster_size"), reportColumn("max_active_clusters"),
                            reportColumn("active_blocks_in_clusters"), reportColumn("driver_max_active_clusters")},
                           nullptr}});
  c.push_back({"rblock-decisions",
               TableChoice{{},
                           {},
                           false,
                           {reportColumn("policy"), reportColumn("applies"), reportColumn("bound_blocks_per_sm"),
                            reportColumn("capacity_blocks"), reportColumn("total_blocks"), reportColumn("decision"),
                            reportColumn("new_config")},
                           nullptr}});
  c.push_back({"rblock-pipeline",
               TableChoice{{},
                           {},
                           false,
                           {reportColumn("stage"), reportColumn("origin"), reportColumn("config"),
                            reportColumn("registers_per_thread"), reportColumn("n_spills", "Spilled registers"),
                            reportColumn("decision"), reportColumn("autotuning")},
                           nullptr}});
}

void addInductorChoices(TableChoices& c) {
  const std::vector<ColumnChoice> run_columns = {configColumn(),
                                                 reportColumn("registers_per_thread"),
                                                 reportColumn("n_spills", "Spills"),
                                                 reportColumn("theoretical_occupancy_pct"),
                                                 reportColumn("limiter"),
                                                 originColumn(),
                                                 reportColumn("old", "Old"),
                                                 reportColumn("new", "New"),
                                                 reportColumn("review_min", "Review-min"),
                                                 reportColumn("exact", "Exact"),
                                                 reportColumn("spills", "Spills rule")};
  c.push_back({"inductor-run", TableChoice{"kernel", {}, false, run_columns, kConfigNote}});
  c.push_back({"inductor-kernel-configs", TableChoice{"kernel", {}, false, run_columns, kConfigNote}});
  c.push_back({"inductor-kernel-runs",
               TableChoice{"kernel",
                           {},
                           false,
                           {reportColumn("config"), originColumn(), reportColumn("registers_per_thread"),
                            reportColumn("n_spills", "Spills"), reportColumn("theoretical_occupancy_pct"),
                            reportColumn("achieved_occupancy_pct"), reportColumn("time_us", "Median time (µs)"),
                            reportColumn("bandwidth_GBps"), reportColumn("pct_of_copy"), reportColumn("status")},
                           kMeasuredNote}});
  c.push_back({"step-profile",
               TableChoice{"kernel",
                           {},
                           false,
                           {reportColumn("rank", "Rank"), reportColumn("category"), reportColumn("launches_per_step"),
                            reportColumn("in_step_per_step_us"), reportColumn("share_pct"), reportColumn("config"),
                            reportColumn("registers_per_thread"), reportColumn("theoretical_occupancy_pct"),
                            reportColumn("old_decision"), reportColumn("new_decision"), reportColumn("exact_decision"),
                            reportColumn("spills_decision")},
                           nullptr}});
}

void addSweepAndDataChoices(TableChoices& c) {
  c.push_back(
      {"compile-sweep",
       TableChoice{{},
                   {},
                   false,
                   {reportColumn("xblock"), reportColumn("rblock"), reportColumn("num_warps"), reportColumn("origin"),
                    reportColumn("status"), reportColumn("registers_per_thread"), reportColumn("n_spills", "Spills"),
                    reportColumn("theoretical_occupancy_pct"), reportColumn("occupancy_limiter", "Limited by"),
                    reportColumn("old_decision"), reportColumn("new_decision"), reportColumn("exact_decision")},
                   nullptr}});
  c.push_back(
      {"live-sweep", TableChoice{{},
                                 "time_us",
                                 false,
                                 {reportColumn("xblock"), reportColumn("rblock"), reportColumn("num_warps"),
                                  reportColumn("registers_per_thread"), reportColumn("spill_stores_bytes"),
                                  reportColumn("theoretical_occupancy_pct"), reportColumn("achieved_occupancy_pct"),
                                  reportColumn("time_us", "Median time (µs)"), reportColumn("bandwidth_GBps"),
                                  reportColumn("pct_of_copy"), reportColumn("status")},
                                 "Fastest first."}});
  c.push_back({"regret", TableChoice{{},
                                     {},
                                     false,
                                     {reportColumn("policy"), reportColumn("candidates"), reportColumn("benchmarked"),
                                      reportColumn("pick"), reportColumn("time_us"), reportColumn("bandwidth_GBps"),
                                      reportColumn("regret")},
                                     nullptr}});
  c.push_back(
      {"family-vs-inductor",
       TableChoice{{},
                   {},
                   false,
                   {reportColumn("xblock"), reportColumn("rblock"), reportColumn("num_warps"),
                    reportColumn("ours_time_us"), reportColumn("triton_time_us"), reportColumn("triton_over_ours"),
                    reportColumn("ours_registers"), reportColumn("triton_registers"), reportColumn("ours_spills"),
                    reportColumn("triton_spills"), reportColumn("triton_bandwidth_GBps")},
                   nullptr}});
  c.push_back({"gpu-data", TableChoice{{},
                                       {},
                                       false,
                                       {reportColumn("entry"), reportColumn("kind"), reportColumn("field"),
                                        reportColumn("value"), reportColumn("source")},
                                       nullptr}});
}

/// The report's choice for the table exported as `name` (its suggested file name); null: none.
const TableChoice* choiceFor(const QString& name) {
  static const TableChoices choices = [] {
    TableChoices c;
    addCalculatorAndRblockChoices(c);
    addInductorChoices(c);
    addSweepAndDataChoices(c);
    return c;
  }();
  for (const auto& [prefix, choice] : choices) {
    if (name.startsWith(QLatin1String(prefix))) return &choice;
  }
  return nullptr;
}

/// A word longer than this without an underscore is cut in its middle (the CSV export has it
/// whole); one with underscores (a kernel's name) may break after them: a report's table breaks
/// text only between words or the parts of a name.
constexpr int kLongestWord = 60;
constexpr int kBreakableName = 28;

QString shortenLongWords(const QString& text) {
  QStringList words = text.split(QLatin1Char(' '));
  for (QString& w : words) {
    if (w.size() > kBreakableName && w.contains(QLatin1Char('_'))) {
      QString out;
      for (qsizetype i = 0; i < w.size(); ++i) {
        out += w[i];
        if (w[i] == QLatin1Char('_') && i + 1 < w.size() && w[i + 1] != QLatin1Char('_')) out += kNameBreak;
      }
      w = out;
    } else if (w.size() > kLongestWord) {
      w = w.left(kLongestWord / 2 - 1) + QStringLiteral("…") + w.right(kLongestWord / 2);
    }
  }
  return words.join(QLatin1Char(' '));
}

/// The choice for a table nobody chose columns for: every column with a display name.
TableChoice labelledColumns(const CsvTable& t) {
  TableChoice choice;
  for (const auto& key : t.header) {
    if (!reportLabel(key).isEmpty()) choice.columns.push_back(reportColumn(key));
  }
  return choice;
}

ReportTable quantityValueTable(const CsvExport& e, int max_rows) {
  ReportTable out;
  out.title = e.title;
  out.header = {trReport("Quantity"), trReport("Value")};
  int shown_rows = 0;
  for (const auto& row : e.table.rows) {
    if (row.size() < 2) continue;
    const QString label = reportLabel(row[0]);
    const QString value = reportValue(row[0], row[1]);
    if (label.isEmpty() || value.isEmpty()) continue;
    if (shown_rows >= max_rows) {
      ++out.rows_left_out;
      continue;
    }
    out.rows.push_back({QString(), {label, shortenLongWords(value)}});
    ++shown_rows;
  }
  return out;
}

}  // namespace

QString reportLabel(std::string_view key) {
  const auto& labels = reportLabels();
  const auto it = labels.find(key);
  return it == labels.end() ? QString() : trReport(it->second);
}

QString reportValue(std::string_view key, const std::string& value) {
  if (value.empty()) return {};
  if (key == "carveout_percent" && value == "-1") return trReport("the driver's choice");
  if (value == "not applicable") return trReport("n/a");
  // A decision reads as one: "no scaling" is not broken over two lines (nor over two pages).
  if (value == "no scaling") return trReport("no\u00A0scaling");
  if (key == "winner") return value == "1" ? trReport("yes") : QString();
  if (key == "status" && value == "ok") return {};  // a status column says only what failed
  if (key == "best_block_size_limit" && value == "0") return trReport("no limit");
  return QString::fromStdString(value);
}

std::vector<std::pair<QString, QString>> reportInputs(const CsvTable& table) {
  std::vector<std::pair<QString, QString>> out;
  for (const auto& [key, value] : table.meta) {
    const QString label = reportLabel(key);
    const QString text = reportValue(key, value);
    if (!label.isEmpty() && !text.isEmpty()) out.emplace_back(label, text);
  }
  return out;
}

QString moreCountText(int n, const QString& singular, const QString& plural) {
  return QStringLiteral("%1 more %2").arg(n).arg(n == 1 ? singular : plural);
}

bool reportShowsTable(const CsvExport& e) {
  // Curves of hundreds of points: the plots draw them.
  return !e.suggested_name.startsWith(QLatin1String("occupancy-curves")) &&
         !e.suggested_name.startsWith(QLatin1String("rblock-bounds"));
}

namespace {

/// A chosen column as the table has it: the columns of its keys (-1 for those it lacks).
struct ShownColumn {
  const ColumnChoice* choice;
  std::vector<int> at;
};

/// The column `key` of `t` (or an alias, findColumn), also as written in capitals or small letters
/// ("XBLOCK" in a compile sweep's file, "xblock" in a live sweep's); -1 when none.
int findKey(const CsvTable& t, const std::string& key) {
  if (const int at = findColumn(t, key); at >= 0) return at;
  std::string upper = key;
  std::string lower = key;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char ch) { return std::toupper(ch); });
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
  if (const int at = findColumn(t, upper); at >= 0) return at;
  return findColumn(t, lower);
}

std::vector<ShownColumn> shownColumnsOf(const CsvTable& t, const TableChoice& choice) {
  std::vector<ShownColumn> shown;
  for (const auto& c : choice.columns) {
    ShownColumn s{&c, {}};
    bool any = false;
    for (const auto& key : c.keys) {
      s.at.push_back(findKey(t, key));
      any = any || s.at.back() >= 0;
    }
    if (any) shown.push_back(std::move(s));
  }
  return shown;
}

std::string cellOf(const std::vector<std::string>& row, int at) {
  return at >= 0 && at < static_cast<int>(row.size()) ? row[static_cast<std::size_t>(at)] : std::string();
}

/// The rows of `t` in the order the report shows them: by `sort_key`'s number, smallest first,
/// rows without one last (as exported when the table has no such column).
std::vector<const std::vector<std::string>*> rowsInOrder(const CsvTable& t, const std::string& sort_key) {
  std::vector<const std::vector<std::string>*> rows;
  for (const auto& row : t.rows) rows.push_back(&row);
  const int at = sort_key.empty() ? -1 : findColumn(t, sort_key);
  if (at < 0) return rows;
  auto number = [at](const std::vector<std::string>* row) {
    bool ok = false;
    const double v = QString::fromStdString(cellOf(*row, at)).toDouble(&ok);
    return ok ? v : std::numeric_limits<double>::infinity();
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const auto* a, const auto* b) { return number(a) < number(b); });
  return rows;
}

/// Takes out the columns that are empty in every shown row: they say nothing.
void dropEmptyColumns(ReportTable& out, std::vector<ShownColumn>& shown) {
  std::vector<bool> keep(shown.size(), false);
  for (const auto& r : out.rows) {
    for (std::size_t i = 0; i < shown.size(); ++i) keep[i] = keep[i] || !r.cells[static_cast<qsizetype>(i)].isEmpty();
  }
  for (std::size_t i = shown.size(); i-- > 0;) {
    if (keep[i]) continue;
    for (auto& r : out.rows) r.cells.removeAt(static_cast<qsizetype>(i));
    shown.erase(shown.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

}  // namespace

ReportTable reportTableOf(const CsvExport& e, int max_rows) {
  const TableChoice* chosen = choiceFor(e.suggested_name);
  // A quantity/value table is one result: shown whole.
  if (chosen != nullptr && chosen->quantity_value) return quantityValueTable(e, std::max(max_rows, 200));
  const TableChoice fallback = chosen == nullptr ? labelledColumns(e.table) : TableChoice{};
  const TableChoice& choice = chosen != nullptr ? *chosen : fallback;
  const CsvTable& t = e.table;
  std::vector<ShownColumn> shown = shownColumnsOf(t, choice);
  const int group_at = choice.group_key.empty() ? -1 : findColumn(t, choice.group_key);
  ReportTable out;
  out.title = e.title;
  if (choice.note != nullptr) out.note = trReport(choice.note);
  for (const auto* row : rowsInOrder(t, choice.sort_key)) {
    ReportTable::Row r;
    bool empty = true;
    for (const auto& s : shown) {
      std::vector<std::string> cells;
      for (int at : s.at) cells.push_back(cellOf(*row, at));
      const QString text =
          s.choice->format ? s.choice->format(cells) : reportValue(s.choice->keys.front(), cells.front());
      empty = empty && text.isEmpty();
      r.cells << shortenLongWords(text);
    }
    if (empty) continue;
    if (static_cast<int>(out.rows.size()) >= max_rows) {
      ++out.rows_left_out;
      continue;
    }
    if (group_at >= 0) r.group = shortenLongWords(QString::fromStdString(cellOf(*row, group_at)));
    out.rows.push_back(std::move(r));
  }
  dropEmptyColumns(out, shown);
  int keys_shown = group_at >= 0 ? 1 : 0;
  for (const auto& s : shown) {
    out.header << (s.choice->name != nullptr ? trReport(s.choice->name) : reportLabel(s.choice->keys.front()));
    keys_shown += static_cast<int>(std::count_if(s.at.begin(), s.at.end(), [](int at) { return at >= 0; }));
  }
  out.columns_left_out = std::max(0, static_cast<int>(t.header.size()) - keys_shown);
  return out;
}

}  // namespace occx::ui
