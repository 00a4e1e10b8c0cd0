// What the RBLOCK-scaling view shows, computed without widgets: its inputs as values
// (RblockInputs, also as settings), the decision of every bound policy with the bounds' curves,
// the candidate pipeline and the keep-halving chain for one set of inputs (RblockResult), and from
// them the rows of its tables, the arithmetic, the plot's title and export subtitle, the status
// summary and the CSV tables.
#pragma once

#include <QColor>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

#include "core/base/csv.h"
#include "core/gpu/device.h"
#include "core/inductor/candidates.h"
#include "core/inductor/rblock_scaling.h"
#include "core/inductor/teaching.h"

class QSettings;

namespace occx::ui {

/// Every input of the view, as values.
struct RblockInputs {
  std::int64_t xnumel = 512;
  std::int64_t rnumel = 8192;
  int xblock = 1;
  int rblock = 2048;
  int num_warps = 16;
  int n_regs = 38;           ///< 1 … 255
  bool n_regs_known = true;  ///< false: n_regs unknown (the decision skips at step 2)
  int n_spills = 0;
  std::int64_t shared_bytes = 0;
  inductor::Profile profile = inductor::Profile::kInductorCurrent;
  inductor::CcGate cc_gate = inductor::CcGate::kProfileDefault;
  inductor::Policy pipeline_policy = inductor::Policy::kNew;
  inductor::ReductionHint hint = inductor::ReductionHint::kInner;
  bool persistent = false;
  bool deterministic = false;
  int sm_override = 0;  ///< 0: the device's SM count
};

/// Writes `inputs` into `settings` (the view's group): numbers, and the profile, policy and hint
/// by their keys.
void saveRblockInputs(QSettings& settings, const RblockInputs& inputs);
/// `base` with what `settings` holds; missing or unknown values keep `base`'s.
RblockInputs readRblockInputs(QSettings& settings, RblockInputs base);

/// Everything the view shows for one set of inputs. When `error` is set the decision could not be
/// made (the device, the numels or the config are invalid): the results are empty, and the texts
/// of the steps not reached are empty (the view keeps what it showed).
struct RblockResult {
  std::optional<Device> device;  ///< the device the decision sees; empty when it cannot be made
  QString device_info;           ///< its limits and register threshold in one line
  QString profile_statement;     ///< what the profile (Inductor version) does
  QString size_hints;            ///< the size hints, saying when a numel was rounded up (rich text)
  inductor::KernelInfo kernel;
  inductor::ReductionConfig config;
  std::vector<inductor::Decision> decisions;  ///< old, new, review_min, exact
  inductor::BoundCurves curves;
  inductor::Pipeline pipeline;
  QString pipeline_note;  ///< the pipeline's order, and whether the config is one of the candidates
  QString loop_note;      ///< which configs Inductor's loop visits in this version
  std::vector<inductor::ChainStep> chain;
  QString error;  ///< why there is no decision; empty when there is
};

/// Decides `in` on `arch` with `sm_count` SMs (the device labelled `gpu_name`, or "CC x.y" when
/// empty): every bound policy's decision, the curves, the candidate pipeline and the chain.
RblockResult decideRblockScaling(const RblockInputs& in, const ArchLimits& arch, const std::string& gpu_name,
                                 int sm_count);

/// A row of the decision, pipeline or chain table, coloured by the decision's outcome.
struct RblockRow {
  QStringList cells;
  QColor background;  ///< invalid: none
};
/// One row per policy: bound, capacity, total blocks, decision, the new R block, the reason.
std::vector<RblockRow> rblockDecisionRows(const std::vector<inductor::Decision>& decisions);
/// One row per candidate of the pipeline (`profile` writes the configs).
std::vector<RblockRow> rblockPipelineRows(const inductor::Pipeline& pipeline, inductor::Profile profile);
/// One row per link of the keep-halving chain.
std::vector<RblockRow> rblockChainRows(const std::vector<inductor::ChainStep>& chain, inductor::Profile profile);
/// "R0_BLOCK 2048 → 1024" for a decision that halves, "–" otherwise.
QString rblockNewBlockText(const inductor::Decision& decision);
/// The decisions' arithmetic as HTML: the total blocks, each policy's formula, bound and reason.
QString rblockArithmeticHtml(const RblockResult& result);
/// The bounds plot's title: num_warps, threads, total blocks and SMs.
QString rblockPlotTitle(const RblockResult& result);
/// The new bound at the config's n_regs (0 when n_regs is unknown or off the curves).
int rblockCurrentBound(const RblockResult& result);
/// "H200 (CC 9.0, 132 SMs) · XBLOCK=1, R0_BLOCK=2048, num_warps=16, n_regs 38"; empty without decisions.
QString rblockExportSubtitle(const RblockResult& result);
/// One line for the status bar: the subtitle's words and the old and new bounds' decisions (`error`
/// when there are none).
QString rblockSummary(const RblockResult& result);

/// The view's CSV tables, each with the target in its metadata.
struct RblockCsv {
  CsvTable decisions;  ///< with the config, its registers and the x size hint
  CsvTable curves;     ///< the bounds against registers per thread
  CsvTable pipeline;
};
/// The tables of `result` (the target: its device's label, empty when none was resolved).
RblockCsv rblockCsv(const RblockResult& result);

}  // namespace occx::ui
