// Fuzz target: the dataset CSV reader (parseCsv) and the readers that consume its tables — the
// live-sweep dataset (liveDatasetFromCsv, what the GUI opens) and the batch RBLOCK decision
// (decideCsvBatch, `occx rblock --input`). Properties checked beyond "no crash":
//   * every table parseCsv returns survives toCsv → parseCsv unchanged (header, rows, metadata keys);
//   * an error is a non-empty message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string_view>

#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/report.h"
#include "core/sweep/live_results.h"

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

  auto live = occx::liveDatasetFromCsv(*table);
  if (!live) require(!live.error().empty(), "a dataset error has a message");

  occx::inductor::BatchOptions options;
  options.db = &occx::GpuDatabase::builtin();
  options.default_gpu = "H100-SXM";
  auto batch = occx::inductor::decideCsvBatch(*table, options);
  if (!batch) require(!batch.error().empty(), "a batch error has a message");
  return 0;
}
