// The Step tab's "Sweep the reductions that matter" off-screen: the section waits for a trace and
// a run with its kernel modules on disk, and says why; its table and words for the whole-step sweep
// of GPT-2 recorded on the H200 (tests/data/inductor/model_sweeps), cell by cell as `occx inductor
// sweep --all` printed it; a sweep whose kernels cannot be compiled here (a Python without PyTorch)
// ends with each kernel a row with its error; Cancel keeps the kernels that finished. No test
// needs PyTorch, Triton or a GPU: a stand-in Python says torch is missing.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <memory>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/step/model_sweep.h"
#include "core/step/profiler_trace.h"
#include "inductor_view_support.h"
#include "tests/support/inductor_scan.h"
#include "ui/jobs/model_sweep_job.h"
#include "ui/models/model_sweep_model.h"
#include "ui/plots/step_pareto_plot.h"
#include "ui/shell/main_window.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/step_pane.h"
#include "ui/widgets/elided_label.h"
#include "ui_test_support.h"

namespace occx::ui {
namespace {

/// The GPT-2 step of tests/data/inductor/step_gpt2 and its whole-step sweep as recorded on the H200
/// (model_sweeps/gpt2.fast.csv, the rows of `occx inductor sweep --all --csv`; the per-kernel wall
/// times from gpt2.fast.txt). The plan's targets point into `run`: built in place, never moved.
struct RecordedStepSweep {
  triton::InductorRun run;
  std::vector<triton::ScanRow> rows;
  step::StepProfile profile;
  step::ModelSweepResult result;
};

const RecordedStepSweep& recordedGpt2StepSweep() {
  static const std::unique_ptr<RecordedStepSweep> s = [] {
    auto g = std::make_unique<RecordedStepSweep>();
    const std::string dir = testing_support::inductorFixture("step_gpt2");
    g->run = testing_support::scanFixturePath(dir);
    g->rows = triton::scanRows(g->run);
    auto trace = step::readProfilerTrace(dir + "/trace.pt.trace.json.gz");
    EXPECT_TRUE(trace.hasValue()) << trace.error();
    if (trace) g->profile = step::profileStep(*trace, step::StepRun{&g->rows, dir});
    auto text = readFile(testing_support::inductorFixture("model_sweeps") + "/gpt2.fast.csv");
    EXPECT_TRUE(text.hasValue()) << text.error();
    auto table = text ? parseCsv(*text) : Expected<CsvTable>(Error{"not read"});
    EXPECT_TRUE(table.hasValue()) << table.error();
    auto recorded = table ? triton::measurementsFromCsv(*table) : Expected<triton::KernelMeasurements>(Error{"none"});
    EXPECT_TRUE(recorded.hasValue()) << recorded.error();
    const step::ModelSweepPlan plan = step::planModelSweep(g->profile, g->run, g->rows, 0);
    const double wall_s[] = {55, 8, 7, 13, 12, 12, 13, 15};
    g->result.plan = plan;
    std::vector<triton::KernelMeasurements> swept;
    for (std::size_t i = 0; i < plan.targets.size(); ++i) {
      triton::KernelSweepResult r;
      r.kernel = *plan.targets[i].kernel;  // its module, device and .best_config, as the sweep re-reads them
      for (const auto& row : recorded ? recorded->rows : std::vector<triton::MeasuredConfig>{}) {
        if (row.kernel != plan.targets[i].kernel->module.name) continue;
        r.runs.rows.push_back(row);
        if (row.method.rfind("brief", 0) == 0) ++r.screened_out;
      }
      r.runs.picks = triton::summarizeMeasurements(r.runs.rows);
      r.measured = true;
      swept.push_back(r.runs);
      g->result.kernels.push_back({plan.targets[i], std::move(r), {}, i < std::size(wall_s) ? wall_s[i] : 0.0});
    }
    g->result.gain = step::predictStepGain(plan, swept);
    g->result.seconds = 134.4;
    return g;
  }();
  return *s;
}

QString sweepCell(const ModelSweepModel& m, int row, int column) {
  return m.data(m.index(row, column), Qt::DisplayRole).toString();
}

/// Scans `path` into `view` and reads the trace `trace` into its Step tab.
bool openStepOfRun(InductorRunView& view, const QString& path, const QString& trace) {
  if (!scanAndWait(view, path)) return false;
  bool done = false;
  QObject::connect(
      view.stepPane(), &StepPane::profileChanged, &view, [&done] { done = true; }, Qt::SingleShotConnection);
  EXPECT_TRUE(view.openTrace(trace).isEmpty());
  return waitFor([&] { return done; }, 20000);
}

/// Clicks the section's Sweep button and waits for the sweep to end (`timeout_ms` at most).
bool clickSweepAndWait(StepPane& pane, int timeout_ms = 60000) {
  bool done = false;
  QObject::connect(
      &pane, &StepPane::modelSweepFinished, &pane, [&done] { done = true; }, Qt::SingleShotConnection);
  EXPECT_TRUE(pane.modelSweepButton()->isEnabled()) << pane.modelSweepButton()->toolTip().toStdString();
  pane.modelSweepButton()->click();
  return waitFor([&] { return done; }, timeout_ms);
}

/// A Python whose helper says torch is missing, the sweep's caches in a folder of the test's.
struct PythonWithoutTorch {
  PythonWithoutTorch() {
    qputenv("OCCX_FAKE_PYTHON_MODE", "no-torch");
    qputenv("XDG_CACHE_HOME", cache.path().toUtf8());
  }
  ~PythonWithoutTorch() {
    qunsetenv("OCCX_FAKE_PYTHON_MODE");
    qunsetenv("XDG_CACHE_HOME");
  }
  PythonWithoutTorch(const PythonWithoutTorch&) = delete;
  PythonWithoutTorch& operator=(const PythonWithoutTorch&) = delete;
  QTemporaryDir cache;
};

TEST(StepModelSweep, TheSectionWaitsForATraceAndARunOnDiskAndSaysWhy) {
  InductorRunView view{testContext()};
  StepPane* pane = view.stepPane();
  ASSERT_NE(pane->modelSweepSection(), nullptr);
  EXPECT_EQ(pane->modelSweepSection()->title(), QStringLiteral("Sweep the reductions that matter"));
  EXPECT_TRUE(pane->modelSweepSection()->isAncestorOf(pane->modelSweepButton()));
  EXPECT_EQ(pane->budgetBox()->value(), 5);
  EXPECT_EQ(pane->topKernelsBox()->value(), 0);
  EXPECT_EQ(pane->topKernelsBox()->text(), QStringLiteral("all"));
  // No trace yet.
  EXPECT_FALSE(pane->modelSweepButton()->isEnabled());
  EXPECT_TRUE(pane->modelSweepButton()->toolTip().contains(QStringLiteral("Open a profiler trace of your step first")))
      << pane->modelSweepButton()->toolTip().toStdString();
  EXPECT_FALSE(view.sweepStep().isEmpty());
  EXPECT_FALSE(pane->isSweepingModel());
  // The bundled run (shown first) and its own trace: its kernel modules are inside the app.
  ASSERT_FALSE(pane->bundledTraceButton()->isHidden());
  bool done = false;
  QObject::connect(
      pane, &StepPane::profileChanged, &view, [&done] { done = true; }, Qt::SingleShotConnection);
  pane->bundledTraceButton()->click();
  ASSERT_TRUE(waitFor([&] { return done; }, 20000));
  EXPECT_FALSE(pane->modelSweepButton()->isEnabled());
  EXPECT_TRUE(pane->modelSweepButton()->toolTip().contains(QStringLiteral("no kernel modules on disk")))
      << pane->modelSweepButton()->toolTip().toStdString();
}

TEST(StepModelSweep, TheTableShowsTheRecordedGpt2SweepAsTheCliPrintsIt) {
  const RecordedStepSweep& s = recordedGpt2StepSweep();
  ASSERT_EQ(s.result.kernels.size(), 8U);
  ModelSweepModel model;
  model.setRows(modelSweepRows(s.result));
  ASSERT_EQ(model.numRows(), 8);
  EXPECT_FALSE(s.result.gain.hasCoordesc());  // the run was not compiled with coordinate descent
  using M = ModelSweepModel;
  EXPECT_EQ(sweepCell(model, 0, M::kRank), QStringLiteral("1"));
  EXPECT_EQ(sweepCell(model, 0, M::kKernel),
            QStringLiteral("triton_red_fused__log_softmax__log_softmax_backward_data__to_copy_arange_clone_eq_expand_"
                           "nll_loss_backward_nll_loss_forward_scalar_tensor_slice_view_where_0"));
  const QStringList first = {QStringLiteral("224.7"),
                             QStringLiteral("9.3"),
                             QStringLiteral("X1 R1024 w8"),
                             QStringLiteral("221.2"),
                             QStringLiteral("X1 R2048 w4"),
                             QStringLiteral("189.9"),
                             QStringLiteral("31.8"),
                             QStringLiteral("X1 R1024 w8"),
                             QStringLiteral("X1 R1024 w8"),
                             QString(),
                             QStringLiteral("no .best_config"),
                             QStringLiteral("none"),
                             QStringLiteral("91"),
                             QStringLiteral("88"),
                             QStringLiteral("0"),
                             QStringLiteral("55")};
  for (int c = M::kPerStep; c < M::kColumnCount; ++c) {
    EXPECT_EQ(sweepCell(model, 0, c), first[c - M::kPerStep])
        << model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString().toStdString();
  }
  EXPECT_EQ(sweepCell(model, 1, M::kKernel),
            QStringLiteral("triton_red_fused__log_softmax__to_copy_prepare_softmax_online_view_0"));
  EXPECT_EQ(sweepCell(model, 1, M::kRanConfig), QStringLiteral("X1 R2048 w16"));
  EXPECT_EQ(sweepCell(model, 1, M::kRanUs), QStringLiteral("175.1"));
  EXPECT_EQ(sweepCell(model, 1, M::kBestConfig), QStringLiteral("X8 R1024 w32"));
  EXPECT_EQ(sweepCell(model, 1, M::kBestUs), QStringLiteral("157.7"));
  EXPECT_EQ(sweepCell(model, 1, M::kGain), QStringLiteral("17.6"));
  EXPECT_EQ(sweepCell(model, 1, M::kScreenedOut), QStringLiteral("76"));
  // Inductor had one candidate for the softmax kernel, so it wrote no .best_config: no pin, and the
  // row says how to get one.
  EXPECT_EQ(sweepCell(model, 1, M::kBestAsPin), QStringLiteral("no .best_config"));
  EXPECT_EQ(sweepCell(model, 1, M::kPin), QStringLiteral("none"));
  EXPECT_TRUE(model.data(model.index(1, M::kPin), Qt::ToolTipRole)
                  .toString()
                  .contains(QStringLiteral("TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1")));
  EXPECT_EQ(sweepCell(model, 2, M::kKernel),
            QStringLiteral("triton_red_fused__to_copy_add_mul_pow_sum_tanh_tanh_backward_view_3"));
  EXPECT_EQ(sweepCell(model, 2, M::kBestConfig), QStringLiteral("X64 R8 w4"));
  EXPECT_EQ(sweepCell(model, 2, M::kGain), QStringLiteral("0.0"));
  EXPECT_EQ(sweepCell(model, 7, M::kKernel),
            QStringLiteral("triton_red_fused__log_softmax__to_copy_clone_nll_loss_forward_slice_sub_view_2"));
  EXPECT_EQ(sweepCell(model, 7, M::kBestConfig), QStringLiteral("X1 R1024 w32"));
  EXPECT_EQ(sweepCell(model, 7, M::kGain), QStringLiteral("0.4"));
  // Every header says its unit or what it counts.
  EXPECT_EQ(model.headerData(M::kGain, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Gain µs/step"));
  EXPECT_TRUE(
      model.headerData(M::kBestUs, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QStringLiteral("cold")));
  EXPECT_TRUE(
      model.headerData(M::kPerStep, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QStringLiteral("trace")));
  // The words: the gain, as the CLI says it, and where the numbers come from.
  const QString words = modelSweepText(s.result);
  EXPECT_TRUE(
      words.contains(QStringLiteral("Swept 8 reductions of a step of 2.43 ms GPU time: the best configs would "
                                    "save 49.8 µs per step (2.1 % of the step).")))
      << words.toStdString();
  EXPECT_TRUE(words.contains(QStringLiteral("TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1")));
  EXPECT_TRUE(words.contains(QStringLiteral("Wall time: 134.4 s for 8 kernels.")));
  EXPECT_EQ(words.count(QStringLiteral("left out: ")), static_cast<int>(s.result.plan.left_out.size()));
  EXPECT_FALSE(words.contains(QStringLiteral("not swept: ")));
  // Sorted by gain, the largest first.
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(ModelSweepModel::kSortRole);
  proxy.sort(M::kGain, Qt::DescendingOrder);
  EXPECT_EQ(proxy.data(proxy.index(1, M::kGain)).toString(), QStringLiteral("17.6"));
}

TEST(StepModelSweep, KernelsThatCannotBeCompiledHereAreRowsWithTheirError) {
  PythonWithoutTorch python;
  InductorRunView view{testContext()};
  ASSERT_TRUE(openStepOfRun(view, inductorFixture("step_gpt2"), inductorFixture("step_gpt2/trace.pt.trace.json.gz")));
  childNamed<QLineEdit>(view, "pythonEdit").setText(QStringLiteral(OCCX_FAKE_PYTHON));
  StepPane* pane = view.stepPane();
  pane->topKernelsBox()->setValue(3);
  ASSERT_TRUE(clickSweepAndWait(*pane));
  const step::ModelSweepResult* r = pane->modelSweepResult();
  ASSERT_NE(r, nullptr) << pane->modelSweepStatus()->fullText().toStdString();
  EXPECT_FALSE(r->cancelled);
  ASSERT_EQ(r->kernels.size(), 3U);
  ASSERT_EQ(pane->modelSweepModel()->numRows(), 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NE(r->kernels[static_cast<std::size_t>(i)].error.find("torch"), std::string::npos)
        << r->kernels[static_cast<std::size_t>(i)].error;
    EXPECT_TRUE(sweepCell(*pane->modelSweepModel(), i, ModelSweepModel::kGain).startsWith(QStringLiteral("failed: ")))
        << sweepCell(*pane->modelSweepModel(), i, ModelSweepModel::kGain).toStdString();
  }
  EXPECT_TRUE(pane->modelSweepWords().contains(QStringLiteral("no gain is predicted")));
  EXPECT_TRUE(pane->modelSweepWords().contains(QStringLiteral("beyond the top 3")));
  // The progress ended: every kernel counted, the bars hidden, the buttons back.
  EXPECT_EQ(pane->overallProgress()->value(), 3);
  EXPECT_EQ(pane->overallProgress()->maximum(), 3);
  EXPECT_FALSE(pane->kernelProgress()->isVisibleTo(pane));
  EXPECT_TRUE(pane->modelSweepButton()->isEnabled());
  EXPECT_TRUE(pane->openButton()->isEnabled());
  EXPECT_FALSE(pane->modelSweepTable()->isColumnHidden(ModelSweepModel::kGain));
  EXPECT_TRUE(pane->modelSweepTable()->isColumnHidden(ModelSweepModel::kCoordesc));
}

TEST(StepModelSweep, CancelKeepsTheKernelsThatFinished) {
  PythonWithoutTorch env;
  // A Python that takes a second to say torch is missing: the second kernel is under way when
  // Cancel is clicked.
  QTemporaryDir dir;
  const QString python = dir.filePath(QStringLiteral("slow-python"));
  QFile script(python);
  ASSERT_TRUE(script.open(QIODevice::WriteOnly));
  script.write(
      "#!/bin/sh\nsleep 1\necho '{\"event\": \"error\", \"missing\": \"torch\", \"error\": \"ModuleNotFoundError: "
      "No module named torch\"}'\nexit 3\n");
  script.close();
  ASSERT_TRUE(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
  InductorRunView view{testContext()};
  ASSERT_TRUE(openStepOfRun(view, inductorFixture("step_gpt2"), inductorFixture("step_gpt2/trace.pt.trace.json.gz")));
  childNamed<QLineEdit>(view, "pythonEdit").setText(python);
  StepPane* pane = view.stepPane();
  bool trace_refused = false;
  bool cancelled = false;
  QObject::connect(pane->modelSweepJob(), &ModelSweepJob::progress, pane,
                   [&](quint64, const step::ModelSweepProgress& p) {
                     if (p.kernel_index < 2 || cancelled) return;
                     cancelled = true;
                     // While it sweeps, the trace stays: Open is off and a trace opened anyway is refused.
                     trace_refused = !pane->openButton()->isEnabled() &&
                                     !view.openTrace(inductorFixture("step_gpt2/trace.pt.trace.json.gz")).isEmpty();
                     pane->modelSweepCancelButton()->click();
                   });
  ASSERT_TRUE(clickSweepAndWait(*pane));
  EXPECT_TRUE(cancelled);
  EXPECT_TRUE(trace_refused);
  const step::ModelSweepResult* r = pane->modelSweepResult();
  ASSERT_NE(r, nullptr) << pane->modelSweepStatus()->fullText().toStdString();
  EXPECT_TRUE(r->cancelled);
  ASSERT_EQ(r->kernels.size(), 1U);
  EXPECT_NE(r->kernels[0].error.find("torch"), std::string::npos) << r->kernels[0].error;
  EXPECT_EQ(pane->modelSweepModel()->numRows(), 1);
  ASSERT_FALSE(r->not_swept.empty());
  EXPECT_NE(r->not_swept.front().find("cancelled"), std::string::npos) << r->not_swept.front();
  EXPECT_TRUE(pane->modelSweepWords().contains(QStringLiteral("Cancelled")));
  EXPECT_TRUE(pane->modelSweepWords().contains(QStringLiteral("not swept: ")));
  EXPECT_TRUE(pane->openButton()->isEnabled());
}

TEST(StepModelSweep, TheSectionFits1280x720BesideTheStep) {
  MainWindow window(testContext(offlineBackend(), false));
  auto* view = new InductorRunView(testContext());
  window.addView(view, QStringLiteral("Inductor run"));
  window.resize(1280, 720);
  window.show();
  window.tabs()->setCurrentWidget(view);
  bool done = false;
  QObject::connect(
      view->stepPane(), &StepPane::profileChanged, view, [&done] { done = true; }, Qt::SingleShotConnection);
  ASSERT_TRUE(view->openTrace(QStringLiteral(":/inductor-runs/gpt2.pt.trace.json.gz")).isEmpty());
  ASSERT_TRUE(waitFor([&] { return done; }, 20000));
  QApplication::processEvents();
  StepPane* pane = view->stepPane();
  EXPECT_TRUE(pane->modelSweepSection()->isVisible());
  EXPECT_TRUE(pane->modelSweepButton()->isVisible());
  EXPECT_TRUE(pane->budgetBox()->isVisible());
  EXPECT_GE(pane->modelSweepButton()->height(), pane->modelSweepButton()->sizeHint().height());
  EXPECT_GE(pane->paretoPlot()->widget()->height(), 180);
  EXPECT_GE(pane->table()->height(), 80);
}

/// Whether the Python a sweep uses ($OCCX_PYTHON, else python3) imports PyTorch and Triton.
bool sweepPythonHasTriton() {
  QProcess p;
  p.start(qEnvironmentVariable("OCCX_PYTHON", QStringLiteral("python3")),
          {QStringLiteral("-c"), QStringLiteral("import torch, triton")});
  return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

TEST(StepModelSweep, WithTritonTheLargestKernelCompilesAndWithoutAGpuIsNotTimed) {
  if (!sweepPythonHasTriton()) {
    GTEST_SKIP() << "needs $OCCX_PYTHON or python3 with PyTorch and Triton: the kernel is compiled for real";
  }
  QTemporaryDir cache;
  qputenv("XDG_CACHE_HOME", cache.path().toUtf8());
  InductorRunView view{testContext()};  // no GPU: compiled and analysed, not timed
  ASSERT_TRUE(openStepOfRun(view, inductorFixture("step_gpt2"), inductorFixture("step_gpt2/trace.pt.trace.json.gz")));
  StepPane* pane = view.stepPane();
  pane->topKernelsBox()->setValue(1);
  pane->budgetBox()->setValue(0);
  const bool ended = clickSweepAndWait(*pane, 600000);
  qunsetenv("XDG_CACHE_HOME");
  ASSERT_TRUE(ended);
  const step::ModelSweepResult* r = pane->modelSweepResult();
  ASSERT_NE(r, nullptr) << pane->modelSweepStatus()->fullText().toStdString();
  ASSERT_EQ(r->kernels.size(), 1U);
  ASSERT_TRUE(r->kernels[0].result.has_value()) << r->kernels[0].error;
  EXPECT_FALSE(r->kernels[0].result->measured);
  EXPECT_GT(sweepCell(*pane->modelSweepModel(), 0, ModelSweepModel::kConfigs).toInt(), 1);
  EXPECT_EQ(sweepCell(*pane->modelSweepModel(), 0, ModelSweepModel::kGain), QStringLiteral("not timed"));
  EXPECT_TRUE(pane->modelSweepWords().contains(QStringLiteral("no gain is predicted")));
}

// At 1280 × 720 half the Step tab would leave the sweep's table two rows: the result takes the
// step's room, and Show the step gives it back.
TEST(StepModelSweep, OnAShortScreenTheResultTakesTheStepsRoom) {
  PythonWithoutTorch python;
  MainWindow window(testContext(offlineBackend(), false));
  auto* view = new InductorRunView(testContext());
  window.addView(view, QStringLiteral("Inductor run"));
  window.resize(1280, 720);
  window.show();
  window.tabs()->setCurrentWidget(view);
  ASSERT_TRUE(openStepOfRun(*view, inductorFixture("step_gpt2"), inductorFixture("step_gpt2/trace.pt.trace.json.gz")));
  childNamed<QLineEdit>(*view, "pythonEdit").setText(QStringLiteral(OCCX_FAKE_PYTHON));
  StepPane* pane = view->stepPane();
  EXPECT_FALSE(pane->stepToggleButton()->isVisible());
  ASSERT_TRUE(clickSweepAndWait(*pane));
  QApplication::processEvents();
  EXPECT_TRUE(pane->stepToggleButton()->isVisible());
  EXPECT_TRUE(pane->stepToggleButton()->isChecked());
  EXPECT_FALSE(pane->paretoPlot()->widget()->isVisible());
  QTableView* table = pane->modelSweepTable();
  EXPECT_TRUE(table->isVisible());
  EXPECT_GE(table->height(), 6 * table->verticalHeader()->defaultSectionSize());
  pane->stepToggleButton()->click();
  QApplication::processEvents();
  EXPECT_TRUE(pane->paretoPlot()->widget()->isVisible());
  EXPECT_GE(pane->paretoPlot()->widget()->height(), 180);
  EXPECT_TRUE(table->isVisible());
  EXPECT_EQ(pane->stepToggleButton()->text(), QStringLiteral("Hide the step"));
}

}  // namespace
}  // namespace occx::ui
