// What the Inductor run view does with a run, without a widget (ui/models/inductor_run_actions.h and
// inductor_run_text.h): what a path is, why a run cannot be measured or a kernel swept, which
// kernels a measurement runs, what a sweep starts from and with which options, merging a sweep,
// the kernel shown first, the step's in-step times, and the words of headings, sources and status.
#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

#include "core/triton/inductor_run.h"
#include "tests/ui/ui_test_support.h"
#include "ui/models/inductor_run_actions.h"
#include "ui/models/inductor_run_text.h"

namespace occx::ui {
namespace {

QString actionsFixture(const char* name) {
  return QStringLiteral(OCCX_INDUCTOR_FIXTURES_DIR "/") + QLatin1String(name);
}

QString writeActionsFile(const QTemporaryDir& dir, const char* name, const QByteArray& text) {
  const QString path = dir.filePath(QLatin1String(name));
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write(text);
  return path;
}

/// The recorded spill case scanned (no widget, no thread): a run whose kernels can be measured.
InductorRunData scannedSpillCase() {
  triton::RunScanOptions options;
  options.input = actionsFixture("spill_log_softmax").toStdString();
  options.home_triton_cache = false;
  auto run = triton::scanInductorRun(options);
  EXPECT_TRUE(run.hasValue()) << (run ? std::string() : run.error());
  if (!run) return {};
  return runDataFromScan(std::make_shared<const triton::InductorRun>(std::move(run).value()));
}

TEST(InductorRunActions, APathIsAScanAScanCsvMeasurementsATraceOrAnotherViewsDataset) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  EXPECT_EQ(runPathKindOf(dir.path()), RunPathKind::kScan);
  EXPECT_EQ(runPathKindOf(writeActionsFile(dir, "k.py", "import triton\n")), RunPathKind::kScan);
  EXPECT_EQ(runPathKindOf(writeActionsFile(dir, "scan.CSV", "a,b\n1,2\n")), RunPathKind::kScanCsv);
  EXPECT_EQ(runPathKindOf(writeActionsFile(dir, "runs.csv", "# format: inductor-kernel-runs\nkernel\n")),
            RunPathKind::kMeasurementsCsv);
  EXPECT_EQ(runPathKindOf(testData("live_sweep_fixture.csv")), RunPathKind::kLiveSweepCsv);
  EXPECT_EQ(runPathKindOf(testData("compile_sweep_mean_var_sm90.csv")), RunPathKind::kCompileSweepCsv);
  EXPECT_EQ(runPathKindOf(writeActionsFile(dir, "step.pt.trace.json", "{}")), RunPathKind::kProfilerTrace);
  EXPECT_EQ(runPathKindOf(QStringLiteral(":/inductor-runs/bert.csv")), RunPathKind::kScanCsv);
}

TEST(InductorRunActions, WhyARunCannotBeMeasured) {
  InductorRunData empty;
  EXPECT_EQ(runUnavailableReason(empty, false, nullptr), QStringLiteral("Open an Inductor cache folder first."));
  auto bundled = loadBundledRun(QStringLiteral("spill_log_softmax"));
  ASSERT_TRUE(bundled.hasValue()) << bundled.error();
  EXPECT_TRUE(runUnavailableReason(*bundled, false, nullptr).startsWith(QStringLiteral("Opened from a CSV: ")));
  EXPECT_TRUE(runUnavailableReason(*bundled, true, nullptr).startsWith(QStringLiteral("A bundled run has no cubins")));
  const InductorRunData scanned = scannedSpillCase();
  ASSERT_NE(scanned.scanned, nullptr);
  EXPECT_EQ(runUnavailableReason(scanned, false, nullptr), QStringLiteral("No GPU backend in this build."));
  FakeBackend backend;
  backend.live = {false, "No NVIDIA driver: test"};
  EXPECT_EQ(runUnavailableReason(scanned, false, &backend), QStringLiteral("No NVIDIA driver: test"));
  backend.live = {true, {}};
  EXPECT_EQ(runUnavailableReason(scanned, false, &backend), QString());
  // What a measurement runs: the scan's kernels with compiled configs; nothing of a CSV.
  ASSERT_EQ(scanned.kernels.size(), 1u);
  ASSERT_EQ(kernelsToMeasure(scanned, &scanned.kernels.front()).size(), 1u);
  EXPECT_EQ(kernelsToMeasure(scanned, &scanned.kernels.front()).front()->configs.size(), 3u);
  EXPECT_EQ(kernelsToMeasure(scanned, nullptr).size(), 1u);
  EXPECT_TRUE(kernelsToMeasure(*bundled, nullptr).empty());
}

TEST(InductorRunActions, WhyAKernelCannotBeSweptAndWhatASweepStartsFrom) {
  auto bundled = loadBundledRun(QStringLiteral("blenderbot"));
  ASSERT_TRUE(bundled.hasValue()) << bundled.error();
  EXPECT_EQ(sweepUnavailableReason(*bundled, nullptr, {}), QStringLiteral("Select a kernel first."));
  const RunKernelEntry* pointwise = nullptr;
  const RunKernelEntry* looped = nullptr;
  for (const auto& k : bundled->kernels) {
    if (k.kind == "pointwise" && pointwise == nullptr) pointwise = &k;
    if (k.kind == "looped reduction" && looped == nullptr) looped = &k;
  }
  ASSERT_NE(pointwise, nullptr);
  ASSERT_NE(looped, nullptr);
  EXPECT_EQ(sweepUnavailableReason(*bundled, pointwise, QStringLiteral("blenderbot")),
            QStringLiteral("Only looped and persistent reductions can be swept (this is a pointwise kernel)."));
  // A bundled run has its modules; the same rows from a CSV do not.
  EXPECT_EQ(sweepUnavailableReason(*bundled, looped, QStringLiteral("blenderbot")), QString());
  EXPECT_TRUE(sweepUnavailableReason(*bundled, looped, {}).startsWith(QStringLiteral("Opened from a CSV: ")));
  auto input = sweepInputOf(*bundled, *looped, QStringLiteral("blenderbot"));
  ASSERT_TRUE(input.hasValue()) << input.error();
  EXPECT_EQ(input->kernel.module.name, looped->kernel);
  EXPECT_NE(input->module_text.find("@triton_heuristics.reduction("), std::string::npos);
  auto missing = sweepInputOf(*bundled, *looped, {});
  ASSERT_FALSE(missing.hasValue());
  EXPECT_EQ(missing.error(), "The kernel " + looped->kernel + " is not in the run's scan.");
  // From a scan: the module file read again.
  const InductorRunData scanned = scannedSpillCase();
  ASSERT_FALSE(scanned.kernels.empty());
  EXPECT_EQ(sweepUnavailableReason(scanned, &scanned.kernels.front(), {}), QString());
  auto from_scan = sweepInputOf(scanned, scanned.kernels.front(), {});
  ASSERT_TRUE(from_scan.hasValue()) << from_scan.error();
  EXPECT_EQ(from_scan->kernel.configs.size(), 3u);
  EXPECT_FALSE(from_scan->module_text.empty());
}

TEST(InductorRunActions, ASweepsOptionsComeFromTheGridAndPythonFields) {
  const InductorRunData scanned = scannedSpillCase();
  ASSERT_NE(scanned.scanned, nullptr);
  const triton::RunKernel& kernel = scanned.scanned->kernels.front();
  auto bad = sweepOptionsOf(kernel, QStringLiteral("XBLOCK=3"), {});
  ASSERT_FALSE(bad.hasValue());
  EXPECT_EQ(bad.error(),
            "Grid: XBLOCK=3: 3 is not a power of two (allowed: powers of two 1 … 4096, as \"1,2,4\" or \"256..4096\")");
  auto options = sweepOptionsOf(kernel, QStringLiteral("  "), QStringLiteral(" /opt/py/bin/python3 "));
  ASSERT_TRUE(options.hasValue()) << options.error();
  EXPECT_TRUE(options->policies);
  ASSERT_TRUE(options->grid.has_value());
  EXPECT_EQ(options->compile.python, "/opt/py/bin/python3");
  EXPECT_NE(options->compile.choose_python.find("the Python box"), std::string::npos);
  // No remedy of the command line's in the GUI's words.
  EXPECT_EQ(options->compile.choose_python.find("--"), std::string::npos);
  EXPECT_EQ(options->compile.choose_cache.find("--"), std::string::npos);
  EXPECT_NE(options->compile.choose_cache.find("HOME"), std::string::npos);
  auto three = sweepOptionsOf(kernel, QStringLiteral("XBLOCK=1 R0_BLOCK=8192..32768 num_warps=16"), {});
  ASSERT_TRUE(three.hasValue()) << three.error();
}

TEST(InductorRunActions, ASweepOfAKernelNoLongerShownMergesNothing) {
  auto data = loadBundledRun(QStringLiteral("spill_log_softmax"));
  ASSERT_TRUE(data.hasValue()) << data.error();
  const std::size_t rows = data->rows.size();
  triton::KernelSweepResult result;
  result.kernel.module.name = "triton_red_fused_not_here_0";
  result.kernel.module.module_hash = "cnothere";
  EXPECT_EQ(mergeSweep(*data, result, QStringLiteral("label")),
            QStringLiteral("The swept kernel triton_red_fused_not_here_0 is not in the run shown any more."));
  EXPECT_EQ(data->rows.size(), rows);
}

TEST(InductorRunActions, TheKernelShownFirstAndAKernelByName) {
  InductorRunData empty;
  EXPECT_EQ(preferredKernel(empty), -1);
  auto data = loadBundledRun(QStringLiteral("blenderbot"));
  ASSERT_TRUE(data.hasValue()) << data.error();
  const int first = preferredKernel(*data);
  ASSERT_GE(first, 0);
  const RunKernelEntry& k = data->kernels[static_cast<std::size_t>(first)];
  EXPECT_EQ(k.kind, "looped reduction");
  for (const auto& other : data->kernels) {
    if (other.kind != "looped reduction") continue;
    EXPECT_LE(std::make_pair(other.added, other.compiledConfigs()), std::make_pair(k.added, k.compiledConfigs()));
  }
  EXPECT_EQ(kernelIndexOf(*data, k.kernel, k.module), first);
  EXPECT_EQ(kernelIndexOf(*data, k.kernel, "another module"), -1);
  // Only pointwise kernels: the first.
  InductorRunData pointwise;
  triton::ScanRow r;
  r.kernel = "triton_poi_fused_0";
  r.kind = "pointwise";
  pointwise.rows = {r};
  groupKernels(pointwise);
  EXPECT_EQ(preferredKernel(pointwise), 0);
}

TEST(InductorRunActions, CompiledConfigsAndTheWinnersRow) {
  RunKernelEntry k;
  k.configs.resize(4);
  k.configs[0].notes = "listed, not compiled";  // no num_warps
  for (std::size_t i = 1; i < 4; ++i) {
    k.configs[i].num_warps = 4;
    k.configs[i].r0_block = 512 << i;
  }
  k.winner = 2;
  const auto configs = compiledConfigsOf(k);
  ASSERT_EQ(configs.size(), 3u);
  EXPECT_EQ(configs.front().r0_block, 1024);
  EXPECT_EQ(winnerConfigRow(k), 1);  // the winner's row among the compiled ones
  k.winner = -1;
  EXPECT_EQ(winnerConfigRow(k), 0);
  // The kernel as a run of its own, for its CSV: every row, the summary of those.
  InductorRunData run;
  run.title = QStringLiteral("Run");
  run.origin = QStringLiteral("scan of /tmp/x");
  k.kernel = "triton_red_0";
  const InductorRunData one = kernelRunData(run, k);
  EXPECT_EQ(one.title, QStringLiteral("Run — triton_red_0"));
  EXPECT_EQ(one.origin, run.origin);
  EXPECT_EQ(one.rows.size(), 4u);
  EXPECT_EQ(one.summary, summaryOfRows(k.configs));
}

TEST(InductorRunActions, InStepTimesOfTheKernelsMatchedToTheRun) {
  EXPECT_TRUE(inStepTimesOf(nullptr).empty());
  step::StepProfile p;
  step::StepKernel a;
  a.name = "triton_red_0";
  a.module = "m0";
  a.match = step::RunMatch::kMatched;
  a.per_step_us = 10.0;
  step::StepKernel b = a;  // the same kernel with another launch shape
  b.per_step_us = 2.5;
  step::StepKernel other;
  other.name = "ampere_sgemm";
  other.match = step::RunMatch::kNotInRun;
  other.per_step_us = 100.0;
  p.kernels = {a, b, other};
  const auto times = inStepTimesOf(&p);
  ASSERT_EQ(times.size(), 1u);
  EXPECT_DOUBLE_EQ(times.at({"triton_red_0", "m0"}), 12.5);
  EXPECT_FALSE(bundledTracePath(QStringLiteral("gpt2")).isEmpty());
  EXPECT_TRUE(bundledTracePath(QStringLiteral("spill_log_softmax")).isEmpty());
  EXPECT_TRUE(bundledTracePath(QString()).isEmpty());
}

TEST(InductorRunText, HeadingsSourceAndStatus) {
  auto data = loadBundledRun(QStringLiteral("ref_log_softmax"));
  ASSERT_TRUE(data.hasValue()) << data.error();
  ASSERT_TRUE(data->measured.rows.empty());
  EXPECT_EQ(runTitleHtml(*data), QStringLiteral("<b>%1</b> — %2").arg(data->title, data->origin));
  auto measured = loadBundledRun(QStringLiteral("spill_log_softmax"));
  ASSERT_TRUE(measured.hasValue()) << measured.error();
  EXPECT_TRUE(
      runTitleHtml(*measured).endsWith(QStringLiteral(" · <b>measured on NVIDIA H200 (2026-12-03) — bundled</b>")))
      << runTitleHtml(*measured).toStdString();
  const RunKernelEntry& k = data->kernels.front();
  const QString title = kernelTitleHtml(k);
  EXPECT_TRUE(title.contains(QStringLiteral("_&#8203;"))) << title.toStdString();  // breaks after underscores
  EXPECT_TRUE(title.contains(QStringLiteral("looped reduction · size hints "))) << title.toStdString();
  // The bundled module with numbered lines and the tile lines among them.
  const NumberedSource s = numberedSourceOf(*data, k);
  ASSERT_FALSE(s.text.isEmpty());
  EXPECT_FALSE(s.tile_lines.empty());
  const QStringList lines = s.text.split(QLatin1Char('\n'));
  for (int line : s.tile_lines) {
    ASSERT_LT(line, lines.size());
    EXPECT_TRUE(lines[line].contains(QStringLiteral("BLOCK"))) << lines[line].toStdString();
  }
  EXPECT_TRUE(s.label.startsWith(QStringLiteral("Module ") + QString::fromStdString(k.module)))
      << s.label.toStdString();
  InductorRunData no_source = *data;
  no_source.sources.clear();
  const NumberedSource none = numberedSourceOf(no_source, k);
  EXPECT_TRUE(none.text.isEmpty());
  EXPECT_EQ(none.label, data->missing_source_note);
  // Status lines.
  triton::KernelMeasurements runs;
  runs.rows.resize(3);
  runs.rows[0].measured.status = RunStatus::kOk;
  runs.seconds = 1.24;
  runs.cancelled = true;
  EXPECT_EQ(measureStatusText(runs, {}),
            QStringLiteral("Ran 3 config(s) on the GPU, 1 ok, in 1.2 s. Cancelled: the finished rows are kept."));
  triton::InductorRun run;
  run.files_read = 12;
  run.triton_caches = {"/tmp/a", "/tmp/b"};
  run.problems = {"x: unreadable"};
  EXPECT_EQ(scanStatusText(run), QStringLiteral("Read 12 files; Triton caches: /tmp/a and 1 more. 1 file(s) could "
                                                "not be read (hover for the list)."));
  EXPECT_EQ(otherViewDatasetText(QStringLiteral("/d/live.csv"), RunPathKind::kLiveSweepCsv, true),
            QStringLiteral("/d/live.csv is a live-sweep dataset: handed to the Live sweep tab."));
  EXPECT_EQ(otherViewDatasetText(QStringLiteral("/d/c.csv"), RunPathKind::kCompileSweepCsv, false),
            QStringLiteral("/d/c.csv is a compile-sweep dataset, not an Inductor run: open it in the Compile sweep "
                           "(NVRTC) tab."));
  // The report: the step's words, and what the measured figures are when the run has some.
  EXPECT_TRUE(runReportHtml(*data, false, {}, {}).isEmpty());
  EXPECT_EQ(runReportHtml(*data, true, QStringLiteral("/tmp/t.json"), QStringLiteral("one\ntwo")),
            QStringLiteral("<p><b>The step</b> (/tmp/t.json):</p><p>one</p><p>two</p>"));
  EXPECT_TRUE(runReportHtml(*measured, false, {}, {}).startsWith(QStringLiteral("<p><b>Measured times</b>: ")));
}

}  // namespace
}  // namespace occx::ui
