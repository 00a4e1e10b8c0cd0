// The bundled Inductor runs (resources/inductor-runs/*.csv, written by scripts/bundle-inductor-runs.py)
// must equal a fresh scan of their fixture, cell for cell: a change to the reader or the analysis
// that changes a figure makes this fail until the bundle is written again.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/triton/inductor_run.h"
#include "core/triton/kernel_measurements.h"
#include "core/triton/run_table.h"

using namespace occx;
using namespace occx::triton;
namespace fs = std::filesystem;

namespace {

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (auto p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

TEST(BundledInductorRuns, EqualAFreshScanOfTheirFixture) {
  const fs::path bundle = fs::path(OCCX_SOURCE_DIR) / "resources" / "inductor-runs";
  int runs = 0;
  for (const auto& e : fs::directory_iterator(bundle)) {
    if (e.path().extension() != ".csv") continue;
    const std::string run = e.path().stem().string();
    auto text = readFile(e.path().string());
    ASSERT_TRUE(text.hasValue()) << text.error();
    auto table = parseCsv(*text);
    ASSERT_TRUE(table.hasValue()) << table.error();
    EXPECT_FALSE(table->metaValue("title").empty()) << run;
    auto bundled = scanFromCsv(*table);
    ASSERT_TRUE(bundled.hasValue()) << bundled.error();

    RunScanOptions o;
    o.input = std::string(OCCX_INDUCTOR_FIXTURES_DIR) + "/" + run;
    o.home_triton_cache = false;
    auto fresh = scanInductorRun(o);
    ASSERT_TRUE(fresh.hasValue()) << fresh.error();
    const auto rows = scanRows(*fresh);
    ASSERT_EQ(rows.size(), bundled->size()) << run << ": run scripts/bundle-inductor-runs.py";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      auto want = rowCells(scanColumns(), rows[i]);
      for (auto& cell : want) replaceAll(cell, o.input, "<" + run + ">");
      EXPECT_EQ(rowCells(scanColumns(), (*bundled)[i]), want)
          << run << " row " << i << ": run scripts/bundle-inductor-runs.py";
    }
    ++runs;
  }
  EXPECT_EQ(runs, 13);
}

// The bundled measurements (resources/inductor-runs/measured/<run>.csv, `occx inductor run` on an
// H200, or `occx inductor sweep` for the four reference reductions): each reads back, names only
// configs of its run's scan or configs a sweep compiled (saying why), ran every config or says why
// not, and holds no path of the machine that recorded it.
TEST(BundledInductorRuns, MeasuredRunsReadBackAndMatchTheirScan) {
  const fs::path bundle = fs::path(OCCX_SOURCE_DIR) / "resources" / "inductor-runs";
  int measured = 0;
  for (const auto& e : fs::directory_iterator(bundle / "measured")) {
    const std::string run = e.path().stem().string();
    SCOPED_TRACE(run);
    auto text = readFile(e.path().string());
    ASSERT_TRUE(text.hasValue()) << text.error();
    EXPECT_EQ(text->find("/root/"), std::string::npos);
    EXPECT_EQ(text->find("/opt/"), std::string::npos);
    auto table = parseCsv(*text);
    ASSERT_TRUE(table.hasValue()) << table.error();
    auto runs = measurementsFromCsv(*table);
    ASSERT_TRUE(runs.hasValue()) << runs.error();
    EXPECT_EQ(table->metaValue("device"), "NVIDIA H200");
    auto scan_text = readFile((bundle / (run + ".csv")).string());
    ASSERT_TRUE(scan_text.hasValue()) << scan_text.error();
    auto scan = scanFromCsv(*parseCsv(*scan_text));
    ASSERT_TRUE(scan.hasValue()) << scan.error();
    for (const auto& r : runs->rows) {
      const bool known = std::any_of(scan->begin(), scan->end(), [&](const ScanRow& s) {
        return s.kernel == r.kernel && s.module == r.module && s.r0_block.value_or(0) == r.r0_block &&
               s.xblock.value_or(0) == r.xblock && s.num_warps.value_or(0) == r.num_warps;
      });
      const bool swept = !table->metaValue("sweep_grid").empty() && !r.swept_for.empty() && r.origin == "swept";
      EXPECT_TRUE(known || swept) << r.kernel << " " << r.configText();
      EXPECT_TRUE(r.ok() || !r.measured.reason.empty()) << r.kernel << " " << r.configText();
      if (!r.ok()) continue;
      // Cold and warm device time, and a bandwidth from DRAM bytes that the GPU could move: never
      // more than 5 % above the copy bandwidth the file records (nll_loss and embedding backward
      // kernels touch part of their buffers: their buffers' bytes / time once read 93,279 GB/s).
      EXPECT_TRUE(r.measured.kernel_time.has_value()) << r.kernel << " " << r.configText();
      EXPECT_TRUE(r.measured.warmTimeUs().has_value()) << r.kernel << " " << r.configText();
      EXPECT_EQ(r.measured.bandwidth_from, "DRAM bytes") << r.kernel << " " << r.configText();
      EXPECT_GT(r.measured.bandwidth_GBps, 0.0);
      EXPECT_LE(r.measured.bandwidth_GBps, 1.05 * std::stod(table->metaValue("copy_bandwidth_GBps")))
          << r.kernel << " " << r.configText();
    }
    EXPECT_FALSE(runs->picks.empty());
    ++measured;
  }
  EXPECT_GE(measured, 9);
}

}  // namespace
