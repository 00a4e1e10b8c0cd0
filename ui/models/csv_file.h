// Reading a CSV file the GUI was asked to open (a dataset, a scan, measured configs), or one of the
// bundled ones in the Qt resource system (":/…"), bounded in size and never blocking on a FIFO.
#pragma once

#include <QString>

#include "core/base/csv.h"
#include "core/base/expected.h"

namespace occx::ui {

/// Reads and parses the CSV at `path` (a file, or a ":/" Qt resource). Errors name the file:
/// "cannot read PATH: not a regular file" (a FIFO or a device, which would block or never end),
/// "cannot read PATH: <why>", "NAME is N bytes: larger than the kMaxCsvBytes-byte limit for CSV
/// files" (checked before reading, and again on what was read), or "NAME: <parseCsv's error>".
Expected<CsvTable> readCsvTable(const QString& path);

/// The value of the "# format:" metadata line among the leading metadata lines of the CSV at `path`
/// (read from its first 64 KiB; a file or a ":/" resource), e.g. "occupancy-explorer-live-sweep 1";
/// empty when there is none or the path is not a regular file (a FIFO would block).
QString csvFormatOf(const QString& path);

/// Where a path opens.
enum class OpenTarget { kInductorRun, kCompileSweep, kLiveSweep, kMeasurements, kProfilerTrace };

/// The view for `path`: a folder or a .py → the Inductor run; a .csv whose "# format:" line (read
/// from the first 64 KiB) is "occupancy-explorer-live-sweep …" → the live sweep, "occx-compile-sweep
/// …" → the compile sweep, "inductor-kernel-runs" → measurements merged into the Inductor run
/// shown; a .json or .json.gz file → a torch.profiler trace for the Inductor run view's Step tab;
/// anything else → the Inductor run (its scan-CSV reader says what is wrong).
OpenTarget openTargetFor(const QString& path);

}  // namespace occx::ui
