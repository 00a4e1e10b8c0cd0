// Live-sweep datasets as files: reading one (from disk or from the bundled resources) and the H200
// measurements that ship inside the program (resources/datasets/*.csv, embedded at build time under
// ":/datasets/"), so the live-sweep view works on a machine without a GPU.
#pragma once

#include <QString>
#include <vector>

#include "core/base/expected.h"
#include "core/sweep/live_results.h"

namespace occx::ui {

/// One bundled dataset.
struct BundledDataset {
  QString path;   ///< resource path, ":/datasets/<file>.csv"
  QString title;  ///< "log_softmax fp16 20736 × 8008 — NVIDIA H200, 2026-11-29"
};

/// The datasets built into this program, sorted by file name (empty when the build had none).
/// Files that do not parse are left out.
std::vector<BundledDataset> bundledDatasets();

/// The bundled sweep of Inductor's own Triton kernel for the same reduction and shape as the bundled
/// dataset at `dataset_path` (":/datasets/h200_mean_var_fp16_32768x8192.csv" →
/// ":/inductor-runs/measured/ref_mean_var.csv"); empty when none ships (any other path included).
QString bundledMeasurementsFor(const QString& dataset_path);

/// Reads a live-sweep CSV (a file path or a ":/" resource path). Errors name the file: unreadable,
/// not CSV, not a live-sweep dataset (a compile-only sweep says to open it in the Compile sweep tab).
Expected<LiveDataset> readLiveDataset(const QString& path);

/// "log_softmax fp16 20736 × 8008" from the dataset's metadata (empty parts left out).
QString datasetShapeText(const LiveDataset& data);
/// "recorded data: NVIDIA H200, 2026-11-29" — the device and the date (UTC) it was measured on.
QString recordedLabel(const LiveDataset& data);

}  // namespace occx::ui
