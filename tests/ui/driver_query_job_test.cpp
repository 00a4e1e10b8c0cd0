// The driver query as a job (DriverQueryJob) and the calculator's "Ask the driver" through it: the
// answer arrives on the UI thread, an error is said in the driver line, a query discarded while it
// runs never answers (Job::discard), and an input change drops the answer for the old inputs.
#include <gtest/gtest.h>

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <atomic>
#include <memory>

#include "ui/jobs/driver_query_job.h"
#include "ui/views/calculator_view.h"
#include "ui_test_support.h"

namespace occx::ui {
namespace {

// The driver's answer as the H200 would give it for a probe of `q`.
DriverOccupancy h200DriverAnswer(const DriverOccupancyQuery& q) {
  DriverOccupancy d;
  d.device_name = "NVIDIA H200";
  d.cc = {9, 0};
  d.sm_count = 132;
  d.probe_registers = q.registers_per_thread;
  d.active_blocks_per_sm = 8;
  d.best_block_size = 1024;
  d.best_min_grid_size = 264;
  d.note = "test driver";
  return d;
}

// A backend with an H200 and a driver that answers after `delay_ms` (counting the questions).
std::shared_ptr<FakeBackend> driverBackend(int delay_ms, std::atomic<int>* asked = nullptr) {
  auto b = std::make_shared<FakeBackend>();
  b->live = {true, {}};
  DeviceInfo gpu;
  gpu.name = "NVIDIA H200";
  gpu.cc = {9, 0};
  gpu.sm_count = 132;
  b->gpus.push_back(gpu);
  b->driver = [delay_ms, asked](const DriverOccupancyQuery& q) -> Expected<DriverOccupancy> {
    if (asked != nullptr) ++*asked;
    QThread::msleep(static_cast<unsigned long>(delay_ms));
    return h200DriverAnswer(q);
  };
  return b;
}

TEST(DriverQueryJob, TheAnswerArrivesForTheQueryAsked) {
  DriverQueryJob job;
  QSignalSpy answered(&job, &DriverQueryJob::answered);
  DriverOccupancyQuery q;
  q.registers_per_thread = 40;
  const quint64 id = job.start(driverBackend(0), q);
  EXPECT_TRUE(job.isRunning());
  ASSERT_TRUE(answered.wait(10000));
  EXPECT_FALSE(job.isRunning());
  ASSERT_EQ(answered.count(), 1);
  EXPECT_EQ(answered.at(0).at(0).value<quint64>(), id);
  const auto d = answered.at(0).at(1).value<DriverOccupancy>();
  EXPECT_EQ(d.device_name, "NVIDIA H200");
  EXPECT_EQ(d.probe_registers, 40);
}

TEST(DriverQueryJob, AnErrorIsReportedInTheDriversWords) {
  auto backend = std::make_shared<FakeBackend>();
  backend->live = {false, "No NVIDIA driver: libcuda.so.1 (test)"};
  DriverQueryJob job;
  QSignalSpy failed(&job, &DriverQueryJob::failed);
  job.start(backend, DriverOccupancyQuery{});
  ASSERT_TRUE(failed.wait(10000));
  EXPECT_EQ(failed.at(0).at(1).toString(), QStringLiteral("No NVIDIA driver: libcuda.so.1 (test)"));
  EXPECT_FALSE(job.isRunning());
}

TEST(DriverQueryJob, ADiscardedQueryNeverAnswers) {
  DriverQueryJob job;
  QSignalSpy answered(&job, &DriverQueryJob::answered);
  QSignalSpy running(&job, &Job::runningChanged);
  job.start(driverBackend(150), DriverOccupancyQuery{});
  job.discard();
  EXPECT_FALSE(job.isRunning());  // idle at once, while the driver still answers
  ASSERT_EQ(running.count(), 2);
  EXPECT_FALSE(running.at(1).at(0).toBool());
  ASSERT_TRUE(job.waitForIdle(10000));
  EXPECT_EQ(answered.count(), 0);
  job.discard();  // nothing runs: nothing changes
  EXPECT_EQ(running.count(), 2);
}

TEST(CalculatorView, AskTheDriverShowsItsAnswerBesideTheModel) {
  std::atomic<int> asked{0};
  CalculatorView view{testContext(driverBackend(0, &asked))};
  view.deviceSelector()->setDetectedGpus(std::vector<DetectedGpu>{{QStringLiteral("NVIDIA H200"), {9, 0}, 132}});
  ASSERT_TRUE(view.askDriverButton()->isEnabled());
  EXPECT_EQ(view.driverStatusLabel()->text(), QStringLiteral("Ask the driver for its figures."));
  QSignalSpy answered(&view, &CalculatorView::driverAnswered);
  view.askDriverButton()->click();
  EXPECT_FALSE(view.askDriverButton()->isEnabled());  // while it asks
  ASSERT_TRUE(answered.wait(10000));
  EXPECT_EQ(asked.load(), 1);
  ASSERT_TRUE(view.driverAnswer().has_value());
  EXPECT_EQ(view.driverAnswer()->probe_registers, view.input().registers_per_thread);
  EXPECT_TRUE(view.askDriverButton()->isEnabled());
  EXPECT_TRUE(view.driverStatusLabel()->text().startsWith(QStringLiteral("Driver of NVIDIA H200 (CC 9.0, 132 SMs)")))
      << view.driverStatusLabel()->text().toStdString();
  // A new input: the answer was for the old one.
  view.registersSpin()->setValue(64);
  EXPECT_FALSE(view.driverAnswer().has_value());
  EXPECT_EQ(view.driverStatusLabel()->text(), QStringLiteral("The inputs changed: ask again."));
}

TEST(CalculatorView, AnInputChangeDropsTheDriversLateAnswer) {
  CalculatorView view{testContext(driverBackend(200))};
  view.deviceSelector()->setDetectedGpus(std::vector<DetectedGpu>{{QStringLiteral("NVIDIA H200"), {9, 0}, 132}});
  QSignalSpy answered(&view, &CalculatorView::driverAnswered);
  view.askDriver();
  ASSERT_TRUE(view.driverJob()->isRunning());
  view.registersSpin()->setValue(64);  // while the driver is still compiling its probe
  EXPECT_FALSE(view.driverJob()->isRunning());
  EXPECT_TRUE(view.askDriverButton()->isEnabled());
  ASSERT_TRUE(view.driverJob()->waitForIdle(10000));
  EXPECT_EQ(answered.count(), 0);  // the answer for 32 registers never arrives
  EXPECT_FALSE(view.driverAnswer().has_value());
  EXPECT_EQ(view.driverStatusLabel()->text(), QStringLiteral("Ask the driver for its figures."));
}

}  // namespace
}  // namespace occx::ui
