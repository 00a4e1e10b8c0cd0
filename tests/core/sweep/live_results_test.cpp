// Live-run results without a GPU: timing statistics, bandwidth, the autotuner replay's picks and
// regrets, and the dataset CSV written and read back (as the GUI opens a file from a GPU machine).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/base/csv.h"
#include "core/sweep/live_results.h"
#include "core/sweep/policy_picks.h"

using namespace occx;

TEST(TimingStats, MedianQuartilesAndSpreadOfOddCount) {
  // Sorted: 10 11 12 13 14 15 100 → median 13; p25 at position 1.5 → 11.5; p75 at 4.5 → 14.5.
  auto s = summarizeTimes({15, 10, 100, 12, 11, 14, 13});
  EXPECT_EQ(s.runs, 7);
  EXPECT_DOUBLE_EQ(s.median_us, 13.0);
  EXPECT_DOUBLE_EQ(s.min_us, 10.0);
  EXPECT_DOUBLE_EQ(s.max_us, 100.0);
  EXPECT_DOUBLE_EQ(s.p25_us, 11.5);
  EXPECT_DOUBLE_EQ(s.p75_us, 14.5);
  EXPECT_DOUBLE_EQ(s.spread_pct, 3.0 / 13.0 * 100.0);  // the outlier at 100 does not move it
}

TEST(TimingStats, EvenCountMedianIsMeanOfMiddleTwo) {
  auto s = summarizeTimes({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(s.median_us, 2.5);
  EXPECT_DOUBLE_EQ(s.p25_us, 1.75);
  EXPECT_DOUBLE_EQ(s.p75_us, 3.25);
}

TEST(TimingStats, EmptyIsAllZero) {
  auto s = summarizeTimes({});
  EXPECT_EQ(s.runs, 0);
  EXPECT_EQ(s.median_us, 0.0);
  EXPECT_EQ(s.spread_pct, 0.0);
}

TEST(Bandwidth, BytesOverMicrosecondsInGBps) {
  // 32768 × 8192 fp16 read + 32768 fp16 written = 536936448 bytes in 128.6 us → 4175.2 GB/s, the
  // anchor's row sum (4174 GB/s there, rounded from the time).
  EXPECT_NEAR(bandwidthGBps(536936448, 128.6), 4175.3, 0.1);
  EXPECT_EQ(bandwidthGBps(1000, 0.0), 0.0);
  EXPECT_EQ(bandwidthGBps(1000, -1.0), 0.0);
}

// An ok measurement: events 50 µs cold, CUPTI 46 µs cold and 38 µs warm, 4 MB of buffers.
Measurement timedRun() {
  Measurement m;
  m.status = RunStatus::kOk;
  m.time.median_us = 50.0;
  m.time.min_us = 49.0;
  m.time.max_us = 60.0;
  m.time.runs = 40;
  TimingStats k;
  k.median_us = 46.0;
  m.kernel_time = k;
  k.median_us = 38.0;
  m.warm_kernel_time = k;
  k.median_us = 42.0;
  m.warm_time = k;
  m.bytes_moved = 4'000'000;
  return m;
}

TEST(TimeFigure, ConfigsAreComparedByTheColdDeviceTimeElseEvents) {
  Measurement m = timedRun();
  EXPECT_DOUBLE_EQ(m.timeUs(), 46.0);       // CUPTI, cold
  EXPECT_DOUBLE_EQ(*m.warmTimeUs(), 38.0);  // CUPTI, warm (before events, 42)
  // The CSV keeps CUPTI's median only: the error bars are the events' scaled to it.
  const TimingStats st = m.timeStats();
  EXPECT_DOUBLE_EQ(st.median_us, 46.0);
  EXPECT_DOUBLE_EQ(st.max_us, 60.0 * 46.0 / 50.0);
  EXPECT_EQ(timeText(m), "46.00 µs device time, L2 cold (warm 38.00 µs; CUDA events 50.00 µs)");
  m.kernel_time.reset();
  m.warm_kernel_time.reset();
  EXPECT_DOUBLE_EQ(m.timeUs(), 50.0);
  EXPECT_DOUBLE_EQ(*m.warmTimeUs(), 42.0);
  m.warm_time.reset();
  m.warm_note = "warm not measured: out of memory: a pristine copy of input 0 (warm runs) needs 4.0 GB";
  EXPECT_EQ(timeText(m, 1), "50.0 µs CUDA events (no CUPTI kernel records), L2 cold (" + m.warm_note + ")");
}

TEST(BandwidthRule, DramBytesOverTheColdDeviceTime) {
  Measurement m = timedRun();
  m.dram_read_bytes = Metric::of(3'000'000.0);
  m.dram_write_bytes = Metric::of(680'000.0);
  applyBandwidth(m, 4000.0);
  EXPECT_EQ(m.bandwidth_from, "DRAM bytes");
  EXPECT_DOUBLE_EQ(m.bandwidth_GBps, 3'680'000.0 / 46e-6 / 1e9);  // 80 GB/s, not the buffers' 87
  EXPECT_DOUBLE_EQ(m.pct_of_copy, m.bandwidth_GBps / 4000.0 * 100.0);
  EXPECT_EQ(bandwidthText(m), "80 GB/s from DRAM bytes (2.0 % of copy)");
  // More than 5 % above the copy bandwidth: not something the GPU moved; not shown, and why.
  m.dram_read_bytes = Metric::of(46e-6 * 4300e9);
  m.dram_write_bytes = Metric::of(0.0);
  applyBandwidth(m, 4000.0);
  EXPECT_EQ(m.bandwidth_GBps, 0.0);
  EXPECT_EQ(m.bandwidth_from,
            "not shown: DRAM bytes / device time = 4300 GB/s, above the copy bandwidth 4000 GB/s by more than 5 %");
  m.dram_read_bytes = Metric::of(46e-6 * 4150e9);  // 3.75 % above: a read-only kernel can beat a copy
  applyBandwidth(m, 4000.0);
  EXPECT_NEAR(m.bandwidth_GBps, 4150.0, 1e-6);
}

TEST(BandwidthRule, WithoutDramBytesTheBuffersEstimateOnlyUnderTheCopyBandwidth) {
  Measurement m = timedRun();
  m.setMetricsMissing("profiling not permitted (ERR_NVGPUCTRPERM)");
  applyBandwidth(m, 4000.0);  // 4 MB / 46 µs = 87 GB/s
  EXPECT_DOUBLE_EQ(m.bandwidth_GBps, 4'000'000.0 / 46e-6 / 1e9);
  EXPECT_EQ(m.bandwidth_from, "buffer bytes (estimate: profiling not permitted (ERR_NVGPUCTRPERM))");
  // nll_loss reads one logit per row of a 500 MB buffer: bytes of the buffers / time is no bandwidth.
  m.bytes_moved = 500'000'000;
  applyBandwidth(m, 4000.0);
  EXPECT_EQ(m.bandwidth_GBps, 0.0);
  EXPECT_EQ(m.bandwidth_from,
            "not shown: no DRAM bytes (profiling not permitted (ERR_NVGPUCTRPERM)); the buffers' bytes / time = "
            "10870 GB/s exceed the copy bandwidth 4000 GB/s, so the kernel touches only part of its buffers");
  EXPECT_EQ(bandwidthText(m).rfind("no bandwidth: no DRAM bytes", 0), 0u);
  // No copy bandwidth to check against: nothing shown either.
  m.bytes_moved = 4'000'000;
  applyBandwidth(m, 0.0);
  EXPECT_EQ(m.bandwidth_GBps, 0.0);
  // A run that did not end ok has no bandwidth and no reason.
  m.status = RunStatus::kWrongResult;
  applyBandwidth(m, 4000.0);
  EXPECT_EQ(m.bandwidth_GBps, 0.0);
  EXPECT_EQ(m.bandwidth_from, "");
}

TEST(TimeFigure, OneComparisonNeverMixesCuptiAndEvents) {
  // Two configs: A with CUPTI (46 µs device, 50 µs events), B without (48 µs events). By CUPTI A
  // would win against B's events although B is faster by the one figure both have: picks fall back
  // to events for every row.
  Measurement a = timedRun();
  Measurement b = timedRun();
  b.kernel_time.reset();
  b.warm_kernel_time.reset();
  b.time.median_us = 48.0;
  const std::vector<PickInput> rows = {{&a, {inductor::Policy::kNew}, false}, {&b, {inductor::Policy::kNew}, false}};
  const PickSummary s = summarizePicks(rows, {inductor::Policy::kNew});
  EXPECT_TRUE(s.events_only);
  EXPECT_EQ(s.best_row, 1);
  EXPECT_DOUBLE_EQ(s.best_time_us, 48.0);
  EXPECT_DOUBLE_EQ(s.timeOf(a), 50.0);
  // Warm follows cold's source: events warm is not shown beside a CUPTI cold figure.
  a.warm_kernel_time.reset();
  EXPECT_FALSE(a.warmTimeUs().has_value());
  EXPECT_DOUBLE_EQ(*b.warmTimeUs(), 42.0);
}

TEST(BandwidthRule, AFigureRecordedBeforeTheRuleIsKeptOnlyWhereTheFileCanCheckIt) {
  Measurement m = timedRun();
  m.setMetricsMissing("not recorded");
  m.bandwidth_GBps = 2000.0;
  applyRecordedBandwidth(m, 4000.0);
  EXPECT_DOUBLE_EQ(m.bandwidth_GBps, 2000.0);
  EXPECT_DOUBLE_EQ(m.pct_of_copy, 50.0);
  EXPECT_EQ(bandwidthCell(m), "~2000");
  // An Inductor run written before the rule has no copy bandwidth: nothing to check it against.
  m.bandwidth_GBps = 2000.0;
  applyRecordedBandwidth(m, 0.0);
  EXPECT_EQ(m.bandwidth_GBps, 0.0);
  EXPECT_EQ(m.bandwidth_from,
            "not shown: recorded as 2000 GB/s, and the file has no copy bandwidth to check it against");
  // With DRAM bytes the rule itself decides, whatever was recorded.
  m.bandwidth_GBps = 93279.0;
  m.dram_read_bytes = Metric::of(3'000'000.0);
  m.dram_write_bytes = Metric::of(680'000.0);
  applyRecordedBandwidth(m, 4000.0);
  EXPECT_EQ(m.bandwidth_from, "DRAM bytes");
  EXPECT_DOUBLE_EQ(m.bandwidth_GBps, 3'680'000.0 / 46e-6 / 1e9);
}

TEST(BandwidthRule, CellsMarkEstimates) {
  Measurement m = timedRun();
  m.dram_read_bytes = Metric::of(3'000'000.0);
  m.dram_write_bytes = Metric::of(680'000.0);
  applyBandwidth(m, 4000.0);
  EXPECT_EQ(bandwidthCell(m), "80");
  m.setMetricsMissing("not collected");
  applyBandwidth(m, 4000.0);
  EXPECT_EQ(bandwidthCell(m), "~87");
  m.bytes_moved = 500'000'000;
  applyBandwidth(m, 4000.0);
  EXPECT_EQ(bandwidthCell(m), "");
}

TEST(StepAgreement, BetweenWarmAndColdOrWithinTenPercentOfOne) {
  const Measurement m = timedRun();  // cold 46, warm 38 (CUPTI)
  EXPECT_EQ(stepAgreement(m, 40.0).text, "between warm and cold");
  EXPECT_TRUE(stepAgreement(m, 38.0).agrees);
  EXPECT_EQ(stepAgreement(m, 50.0).text, "within 10 % of cold");  // 46 × 1.087
  EXPECT_EQ(stepAgreement(m, 35.0).text, "within 10 % of warm");
  const StepAgreement slow = stepAgreement(m, 126.0);  // T5's attention backward inside its step
  EXPECT_FALSE(slow.agrees);
  EXPECT_EQ(slow.text, "outside: 0.37× the in-step time (cold, below it)");
  EXPECT_EQ(stepAgreement(m, 20.0).text, "outside: 1.90× the in-step time (warm, above it)");
  Measurement failed = m;
  failed.status = RunStatus::kLaunchFailed;
  EXPECT_FALSE(stepAgreement(failed, 40.0).agrees);
}

TEST(Metric, TextShowsValueOrReason) {
  EXPECT_EQ(Metric::of(87.456).text(1), "87.5");
  EXPECT_EQ(Metric::missing("profiling not permitted").text(), "unavailable: profiling not permitted");
}

namespace {

LiveRow row(int xblock, int rblock, int warps, RunStatus st, double median_us, int n_spills = 0) {
  LiveRow r;
  r.config.workload = Workload::kSum;
  r.config.dtype = DType::kF16;
  r.config.xblock = xblock;
  r.config.rblock = rblock;
  r.config.num_warps = warps;
  r.measured.status = st;
  r.measured.time.median_us = median_us;
  r.measured.time.min_us = median_us * 0.99;
  r.measured.time.max_us = median_us * 1.2;
  r.measured.time.runs = st == RunStatus::kOk ? 50 : 0;
  r.measured.bandwidth_GBps = median_us > 0 ? 1000.0 / median_us : 0.0;
  r.n_spills = n_spills;
  r.in_grid = true;
  return r;
}

// The CSV of a one-row dataset (an ok row of 50 µs) with its time_us cell replaced by `time_us`.
CsvTable csvWithTimeUs(const std::string& time_us) {
  LiveDataset d;
  d.rows.push_back(row(1, 1024, 8, RunStatus::kOk, 50.0));
  CsvTable t = liveDatasetToCsv(d);
  t.rows[0][static_cast<std::size_t>(t.column("time_us"))] = time_us;
  return t;
}

}  // namespace

TEST(Replay, EachPolicyPicksItsFastestBenchmarkedCandidate) {
  std::vector<LiveRow> rows;
  rows.push_back(row(1, 2048, 16, RunStatus::kOk, 130.0));  // 0: Inductor's candidate
  rows[0].inductor_candidate = true;
  rows.push_back(row(1, 1024, 16, RunStatus::kOk, 120.0));  // 1: added by new and exact
  rows[1].added_by = {inductor::Policy::kNew, inductor::Policy::kExact};
  rows.push_back(row(1, 512, 16, RunStatus::kOk, 100.0, 40));  // 2: added by exact, spills 40 > 16
  rows[2].added_by = {inductor::Policy::kExact};
  rows.push_back(row(2, 512, 8, RunStatus::kOk, 110.0));         // 3: grid only, the best that ran clean…
  rows.push_back(row(1, 256, 8, RunStatus::kWrongResult, 0.0));  // 4: never the best
  auto s = summarizeReplay(rows, 16);
  // The best over everything ok is row 2 (100 us): spilling does not matter for "best".
  EXPECT_EQ(s.best_row, 2);
  EXPECT_DOUBLE_EQ(s.best_time_us, 100.0);
  ASSERT_EQ(s.picks.size(), 3u);
  EXPECT_EQ(s.picks[0].policy, inductor::Policy::kOld);
  EXPECT_EQ(s.picks[0].candidates, 1);
  EXPECT_EQ(s.picks[0].row, 0);
  EXPECT_DOUBLE_EQ(s.picks[0].regret, 1.3);
  EXPECT_EQ(s.picks[1].policy, inductor::Policy::kNew);
  EXPECT_EQ(s.picks[1].candidates, 2);
  EXPECT_EQ(s.picks[1].row, 1);
  EXPECT_DOUBLE_EQ(s.picks[1].regret, 1.2);
  EXPECT_EQ(s.picks[2].policy, inductor::Policy::kExact);
  EXPECT_EQ(s.picks[2].candidates, 3);
  EXPECT_EQ(s.picks[2].benchmarked, 2);  // row 2 dropped by the spill filter
  EXPECT_EQ(s.picks[2].row, 1);
}

TEST(Replay, NoCandidateRanGivesNoPick) {
  std::vector<LiveRow> rows = {row(1, 2048, 16, RunStatus::kLaunchFailed, 0.0)};
  rows[0].inductor_candidate = true;
  auto s = summarizeReplay(rows);
  EXPECT_EQ(s.best_row, -1);
  EXPECT_EQ(s.picks[1].row, -1);
  EXPECT_EQ(s.picks[1].candidates, 1);
  EXPECT_EQ(s.picks[1].benchmarked, 0);
  EXPECT_EQ(s.picks[1].regret, 0.0);
}

TEST(LiveDataset, CsvRoundTripKeepsEveryField) {
  LiveDataset d;
  d.meta = {{"device", "NVIDIA H200"},
            {"driver", "580.159.04"},
            {"toolkit", "NVRTC 13.0"},
            {"date_utc", "2026-11-29T22:00:00Z"}};
  auto r = row(1, 2048, 16, RunStatus::kOk, 128.625);
  r.config.fp32_outputs = true;
  r.inductor_candidate = true;
  r.added_by = {inductor::Policy::kNew};
  r.registers = 38;
  r.spill_stores_bytes = 0;
  r.spill_loads_bytes = 0;
  r.n_spills = 0;
  r.static_smem_bytes = 64;
  r.theoretical_occupancy_pct = 75.0;
  r.measured.grid_blocks = 32768;
  r.measured.kernel_time = TimingStats{};
  r.measured.kernel_time->median_us = 126.5;
  r.measured.pct_of_copy = 97.25;
  r.measured.bandwidth_from = "DRAM bytes";
  r.measured.warm_kernel_time = TimingStats{};
  r.measured.warm_kernel_time->median_us = 101.25;
  r.measured.warm_time = TimingStats{};
  r.measured.warm_time->median_us = 104.5;
  r.measured.checked = true;
  r.measured.check.max_abs_error = 0.0078125;
  r.measured.reason = "note, with a comma";
  r.measured.achieved_occupancy_pct = Metric::of(71.25);
  r.measured.dram_read_bytes = Metric::of(536870912);
  r.measured.local_load_bytes = Metric::missing("profiling not permitted (ERR_NVGPUCTRPERM)");
  d.rows.push_back(r);
  auto bad = row(2, 4096, 4, RunStatus::kWrongResult, 0.0);
  bad.measured.reason = "out0: 3 of 512 elements differ; worst [17]: got nan, want 1.25";
  d.rows.push_back(bad);

  const std::string text = toCsv(liveDatasetToCsv(d));
  auto parsed = parseCsv(text);
  ASSERT_TRUE(parsed) << parsed.error();
  auto back = liveDatasetFromCsv(*parsed);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->metaValue("device"), "NVIDIA H200");
  EXPECT_EQ(back->metaValue("driver"), "580.159.04");
  ASSERT_EQ(back->rows.size(), 2u);
  const auto& a = back->rows[0];
  EXPECT_EQ(a.config, r.config);
  EXPECT_TRUE(a.inductor_candidate);
  EXPECT_TRUE(a.added_by.contains(inductor::Policy::kNew));
  EXPECT_FALSE(a.added_by.contains(inductor::Policy::kOld));
  EXPECT_EQ(a.registers, 38);
  EXPECT_EQ(a.static_smem_bytes, 64);
  EXPECT_DOUBLE_EQ(a.theoretical_occupancy_pct, 75.0);
  EXPECT_EQ(a.measured.status, RunStatus::kOk);
  EXPECT_EQ(a.measured.reason, "note, with a comma");
  EXPECT_EQ(a.measured.grid_blocks, 32768);
  EXPECT_DOUBLE_EQ(a.measured.time.median_us, 128.625);
  EXPECT_EQ(a.measured.time.runs, 50);
  ASSERT_TRUE(a.measured.kernelTimeUs().has_value());
  EXPECT_DOUBLE_EQ(*a.measured.kernelTimeUs(), 126.5);
  EXPECT_DOUBLE_EQ(a.measured.pct_of_copy, 97.25);
  EXPECT_EQ(a.measured.bandwidth_from, "DRAM bytes");
  EXPECT_DOUBLE_EQ(*a.measured.warmTimeUs(), 101.25);
  EXPECT_DOUBLE_EQ(a.measured.warm_time->median_us, 104.5);
  EXPECT_DOUBLE_EQ(a.measured.maxAbsError(), 0.0078125);
  EXPECT_DOUBLE_EQ(*a.measured.achieved_occupancy_pct.value, 71.25);
  EXPECT_DOUBLE_EQ(*a.measured.dram_read_bytes.value, 536870912.0);
  EXPECT_FALSE(a.measured.local_load_bytes.value.has_value());
  EXPECT_EQ(a.measured.local_load_bytes.unavailable, "profiling not permitted (ERR_NVGPUCTRPERM)");
  const auto& b = back->rows[1];
  EXPECT_EQ(b.measured.status, RunStatus::kWrongResult);
  EXPECT_EQ(b.measured.reason, bad.measured.reason);
  EXPECT_EQ(b.measured.time.median_us, 0.0);  // not timed: written empty
  EXPECT_FALSE(b.measured.kernelTimeUs().has_value());
  // Replaying the read-back rows gives the same picks as the originals.
  EXPECT_EQ(summarizeReplay(back->rows).best_row, summarizeReplay(d.rows).best_row);
}

TEST(LiveDataset, AFileFromBeforeTheBandwidthRuleGetsTheRuleOnReading) {
  // Written before bandwidth_from: bandwidth was the minimum bytes over CUDA events. With DRAM
  // bytes the rule recomputes it over the cold device time; without, a figure above the file's copy
  // bandwidth is not shown.
  LiveDataset d;
  d.meta = {{"copy_bandwidth_GBps", "4000.0"}};
  auto with_dram = row(1, 2048, 16, RunStatus::kOk, 50.0);
  with_dram.measured.kernel_time = TimingStats{};
  with_dram.measured.kernel_time->median_us = 40.0;
  with_dram.measured.dram_read_bytes = Metric::of(100e6);
  with_dram.measured.dram_write_bytes = Metric::of(20e6);
  d.rows.push_back(with_dram);
  auto too_fast = row(1, 4096, 16, RunStatus::kOk, 50.0);
  too_fast.measured.bandwidth_GBps = 9000.0;
  d.rows.push_back(too_fast);
  auto fine = row(1, 1024, 16, RunStatus::kOk, 50.0);  // 20 GB/s
  d.rows.push_back(fine);
  CsvTable t = liveDatasetToCsv(d);
  const auto col = static_cast<std::size_t>(t.column("bandwidth_from"));
  t.header.erase(t.header.begin() + static_cast<std::ptrdiff_t>(col));
  for (auto& r : t.rows) r.erase(r.begin() + static_cast<std::ptrdiff_t>(col));
  auto back = liveDatasetFromCsv(t);
  ASSERT_TRUE(back) << back.error();
  EXPECT_DOUBLE_EQ(back->rows[0].measured.bandwidth_GBps, 120e6 / 40e-6 / 1e9);  // 3000 GB/s
  EXPECT_EQ(back->rows[0].measured.bandwidth_from, "DRAM bytes");
  EXPECT_EQ(back->rows[1].measured.bandwidth_GBps, 0.0);
  EXPECT_EQ(back->rows[1].measured.bandwidth_from,
            "not shown: recorded as 9000 GB/s, above the copy bandwidth 4000 GB/s");
  EXPECT_DOUBLE_EQ(back->rows[2].measured.bandwidth_GBps, 20.0);
  EXPECT_EQ(back->rows[2].measured.bandwidth_from, "bytes over CUDA events (recorded before DRAM bytes were measured)");
}

TEST(LiveDataset, JsonComesFromTheSameColumns) {
  LiveDataset d;
  d.meta = {{"device", "NVIDIA H200"}};
  auto r = row(1, 2048, 16, RunStatus::kOk, 128.625);
  r.registers = 38;
  r.measured.achieved_occupancy_pct = Metric::of(71.25);
  r.measured.local_load_bytes = Metric::missing("profiling not permitted");
  d.rows.push_back(r);
  d.rows.push_back(row(2, 4096, 4, RunStatus::kWrongResult, 0.0));
  const auto j = liveDatasetToJson(d);
  EXPECT_EQ(j["meta"]["format"], "occupancy-explorer-live-sweep 1");
  EXPECT_EQ(j["meta"]["device"], "NVIDIA H200");
  ASSERT_EQ(j["rows"].size(), 2u);
  const auto& ok = j["rows"][0];
  EXPECT_TRUE(ok["rblock"].is_number_integer());
  EXPECT_EQ(ok["rblock"], 2048);
  EXPECT_EQ(ok["registers_per_thread"], 38);
  EXPECT_EQ(ok["time_us"], 128.625);
  EXPECT_EQ(ok["achieved_occupancy_pct"], 71.25);
  EXPECT_EQ(ok["local_load_bytes"], "unavailable: profiling not permitted");
  EXPECT_EQ(ok["status"], "ok");
  const auto& wrong = j["rows"][1];
  EXPECT_TRUE(wrong["time_us"].is_null());  // only rows that ran ok have times
  EXPECT_EQ(wrong["status"], "wrong result");
  EXPECT_EQ(j["rows"][0].size(), liveColumns().size());
}

TEST(LiveDataset, RejectsFilesThatAreNotLiveSweeps) {
  CsvTable t;
  t.header = {"a"};
  auto r = liveDatasetFromCsv(t);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("not a live-sweep dataset"), std::string::npos);
}

TEST(LiveDataset, NamesRowAndColumnOfABadNumber) {
  auto r = liveDatasetFromCsv(csvWithTimeUs("12x"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "live-sweep dataset: row 1, column time_us: '12x' is not a number");
}

TEST(LiveDataset, OkRowWithoutTimeIsRejected) {
  auto r = liveDatasetFromCsv(csvWithTimeUs(""));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("row 1: status ok but time_us is not positive"), std::string::npos);
}

TEST(LiveDataset, MissingRequiredColumnIsNamed) {
  LiveDataset d;
  CsvTable t = liveDatasetToCsv(d);
  t.header[static_cast<std::size_t>(t.column("rblock"))] = "r_block";
  auto r = liveDatasetFromCsv(t);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "live-sweep dataset: required column 'rblock' is missing");
}

TEST(RunStatusNames, RoundTripAndUnknown) {
  for (auto s : {RunStatus::kOk, RunStatus::kWrongResult, RunStatus::kLaunchFailed, RunStatus::kOutOfMemory,
                 RunStatus::kCompileFailed, RunStatus::kSkipped, RunStatus::kCancelled}) {
    auto p = parseRunStatus(runStatusName(s));
    ASSERT_TRUE(p);
    EXPECT_EQ(*p, s);
  }
  EXPECT_FALSE(parseRunStatus("fine"));
}
