// The bundled Inductor runs (resources/inductor-runs/*.csv, written by scripts/bundle-inductor-runs.py)
// must equal a fresh scan of their fixture, cell for cell: a change to the reader or the analysis
// that changes a figure makes this fail until the bundle is written again.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/triton/inductor_run.h"
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
      EXPECT_EQ(rowCells(scanColumns(), (*bundled)[i]), want) << run << " row " << i << ": run scripts/bundle-inductor-runs.py";
    }
    ++runs;
  }
  EXPECT_EQ(runs, 12);
}

}  // namespace
