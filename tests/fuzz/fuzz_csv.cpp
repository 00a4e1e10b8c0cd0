// Fuzz target: the dataset CSV reader (parseCsv) and the readers that consume its tables — the
// live-sweep dataset (liveDatasetFromCsv, what the GUI opens), the compile-sweep dataset
// (compileSweepFromCsv, what `occx sweep --csv` writes and the GUI opens) and the batch RBLOCK decision
// (decideCsvBatch, `occx rblock --input`) and the kernel-runs CSV (measurementsFromCsv, `occx inductor
// run --csv`, what the Inductor run view merges), and the pairing of the two (kernelShapes,
// compareWithTriton: the Live sweep view's "Compare with Inductor's kernel…"). Properties checked
// beyond "no crash":
//   * every table parseCsv returns survives toCsv → parseCsv unchanged (header, rows, metadata keys),
//     and writing it again gives the same text (metadata values too);
//   * an error is a non-empty message;
//   * a dataset read from a table writes a table that reads back to the same dataset table;
//   * a kernel-runs file pairs with a dataset of each shape its notes give (no rows: nothing paired), and
//     a dataset does not pair with a kernel-runs file that records no shape.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/report.h"
#include "core/sweep/compile_sweep_dataset.h"
#include "core/sweep/live_results.h"
#include "core/triton/family_fidelity.h"
#include "core/triton/kernel_measurements.h"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_csv: property violated: %s\n", what);
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto table = occx::parseCsv(text);
  if (!table) {
    require(!table.error().empty(), "an error has a message");
    return 0;
  }
  // Round trip: what the CLI writes, the GUI reads back identically.
  auto again = occx::parseCsv(occx::toCsv(*table));
  require(again.hasValue(), "toCsv output parses");
  require(again->header == table->header, "header survives the round trip");
  require(again->rows == table->rows, "rows survive the round trip");
  require(again->meta.size() == table->meta.size(), "metadata lines survive the round trip");
  for (std::size_t i = 0; i < table->meta.size(); ++i) {
    require(again->meta[i].first == table->meta[i].first, "metadata keys survive the round trip");
  }
  require(occx::toCsv(*again) == occx::toCsv(*table), "a table survives write → read → write (metadata values too)");

  auto live = occx::liveDatasetFromCsv(*table);
  if (!live) {
    require(!live.error().empty(), "a dataset error has a message");
  } else {
    auto unpaired = occx::compareWithTriton(*live, occx::triton::KernelMeasurements{});
    require(!unpaired.hasValue() && !unpaired.error().empty(), "no kernel shape: an error with a message");
  }

  auto sweep = occx::compileSweepFromCsv(*table);
  if (!sweep) {
    require(!sweep.error().empty(), "a compile-sweep error has a message");
  } else {
    const occx::CsvTable written = sweep->toCsv();
    auto reread = occx::compileSweepFromCsv(written);
    require(reread.hasValue(), "a written compile sweep reads back");
    require(occx::toCsv(reread->toCsv()) == occx::toCsv(written), "a compile sweep survives write → read → write");
  }

  occx::inductor::BatchOptions options;
  options.db = &occx::GpuDatabase::builtin();
  options.default_gpu = "H100-SXM";
  auto batch = occx::inductor::decideCsvBatch(*table, options);
  if (!batch) require(!batch.error().empty(), "a batch error has a message");

  auto runs = occx::triton::measurementsFromCsv(*table);
  if (!runs) {
    require(!runs.error().empty(), "a kernel-runs error has a message");
  } else {
    const std::string written = occx::toCsv(occx::triton::measurementsToCsv(*runs));
    auto reread = occx::parseCsv(written);
    require(reread.hasValue(), "a written kernel-runs CSV parses");
    auto again_runs = occx::triton::measurementsFromCsv(*reread);
    require(again_runs.hasValue(), "a written kernel-runs CSV reads back");
    require(occx::toCsv(occx::triton::measurementsToCsv(*again_runs)) == written,
            "kernel runs survive write → read → write");
    (void)occx::triton::picksTable(*again_runs);
    for (const auto& shape : occx::kernelShapes(*runs)) {
      occx::LiveDataset empty;
      empty.meta = {{"xnumel", std::to_string(shape.xnumel)}, {"rnumel", std::to_string(shape.rnumel)}};
      auto paired = occx::compareWithTriton(empty, *runs);
      require(paired.hasValue() && paired->pairs.empty(),
              "a dataset of the kernel's shape pairs, with no rows nothing");
    }
  }
  return 0;
}
