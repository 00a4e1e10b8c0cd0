// Datasets the GUI and the CLI open may come from anywhere: values no GPU can produce (inf times,
// an SM count of 0, 10^308 GB/s), a column given twice, a negative spill count. Each is refused on
// load with the row (or metadata key) and the column, never shown as given. The inputs are
// tests/data/live_sweep_fixture.csv and fuzz_csv's compile-sweep seed with one value changed.
#include <gtest/gtest.h>

#include <string>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/report.h"
#include "core/sweep/compile_sweep_dataset.h"
#include "core/sweep/live_results.h"

using namespace occx;

namespace {

std::string seed(const std::string& name) {
  const std::string path =
      name == "live_sweep.csv" ? "/tests/data/live_sweep_fixture.csv" : "/tests/fuzz/corpus/fuzz_csv/" + name;
  auto text = readFile(std::string(OCCX_SOURCE_DIR) + path);
  EXPECT_TRUE(text.hasValue());
  return text.hasValue() ? *text : std::string();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

Expected<LiveDataset> live(const std::string& text) {
  auto table = parseCsv(text);
  if (!table) return Error{table.error()};
  return liveDatasetFromCsv(*table);
}

}  // namespace

TEST(HostileCsv, LiveSweepSeedIsRead) {
  auto d = live(seed("live_sweep.csv"));
  ASSERT_TRUE(d) << d.error();
  EXPECT_FALSE(d->rows.empty());
}

TEST(HostileCsv, LiveSweepInfiniteTimeIsRefused) {
  auto d = live(replaced(seed("live_sweep.csv"), ",ok,,264,40.400,", ",ok,,264,inf,"));
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error(), "live-sweep dataset: row 1, column time_us: 'inf' is not a finite number");
  d = live(replaced(seed("live_sweep.csv"), ",1568.3,", ",nan,"));
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error(), "live-sweep dataset: row 1, column bandwidth_GBps: 'nan' is not a finite number");
}

TEST(HostileCsv, LiveSweepOutOfRangeValuesAreRefused) {
  auto d = live(replaced(seed("live_sweep.csv"), "# sm_count: 132", "# sm_count: 0"));
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error(), "live-sweep dataset: metadata 'sm_count': '0' is out of range: allowed an integer 1 … 1024");
  d = live(replaced(seed("live_sweep.csv"), "# copy_bandwidth_GBps: 4257.0", "# copy_bandwidth_GBps: nan"));
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().find("metadata 'copy_bandwidth_GBps': 'nan' is out of range"), std::string::npos) << d.error();
  d = live(replaced(seed("live_sweep.csv"), ",1568.3,", ",1e308,"));
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().find("row 1: column bandwidth_GBps: "), std::string::npos) << d.error();
  EXPECT_NE(d.error().find("is out of range: allowed 0 … 100000 GB/s"), std::string::npos) << d.error();
}

TEST(HostileCsv, DuplicateColumnIsRefused) {
  auto d = live(replaced(seed("live_sweep.csv"), ",time_us,min_us,", ",time_us,time_us,"));
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().find("column 'time_us' appears twice in the header (columns "), std::string::npos) << d.error();

  auto table = parseCsv("xnumel,rnumel,xblock,rblock,num_warps,nregs,n_regs\n512,8192,1,2048,16,38,255\n");
  ASSERT_TRUE(table);
  inductor::BatchOptions o;
  o.db = &GpuDatabase::builtin();
  o.default_gpu = "H200";
  auto out = inductor::decideCsvBatch(*table, o);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error(), "input CSV has column 'registers_per_thread' twice (columns 6 'nregs' and 7 'n_regs')");
}

TEST(HostileCsv, NegativeSpillCountIsRefused) {
  std::string text = seed("compile_sweep.csv");
  auto table = parseCsv(text);
  ASSERT_TRUE(table) << table.error();
  const int col = table->column("n_spills");
  ASSERT_GE(col, 0);
  ASSERT_FALSE(table->rows.empty());
  table->rows[0][static_cast<std::size_t>(col)] = "-5";
  auto d = compileSweepFromCsv(*table);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().find("row 1, column n_spills: '-5' is not a count of 0 or more"), std::string::npos) << d.error();
}
