#include "core/triton/family_fidelity.h"

#include <cstdlib>
#include <regex>

#include "core/base/columns.h"
#include "core/base/format.h"

namespace occx {

namespace {

bool spills(const LiveRow& r) {
  return r.spill_stores_bytes > 0 || r.spill_loads_bytes > 0 || r.n_spills > 0;
}

std::string shapeText(std::int64_t x, std::int64_t r) {
  return num(x) + " × " + num(r);
}

}  // namespace

std::vector<KernelShape> kernelShapes(const triton::KernelMeasurements& runs) {
  // What core/triton/launch_plan.cpp writes for a numel it knows exactly; a size hint's note
  // ("… from the size hint …") is a power of two above the numel and does not match.
  static const std::regex kNote(R"(^(\S+): (xnumel|r0_numel) = (\d+) (in the kernel body|as launched)$)");
  std::vector<KernelShape> shapes;
  auto shapeOf = [&shapes](const std::string& kernel) -> KernelShape& {
    for (auto& s : shapes) {
      if (s.kernel == kernel) return s;
    }
    shapes.push_back(KernelShape{kernel, 0, 0});
    return shapes.back();
  };
  for (const auto& note : runs.notes) {
    std::smatch m;
    if (!std::regex_match(note, m, kNote)) continue;
    std::int64_t value = 0;
    if (!readInteger(m[3].str(), value, false).empty()) continue;
    KernelShape& s = shapeOf(m[1].str());
    (m[2].str() == "xnumel" ? s.xnumel : s.rnumel) = value;
  }
  std::erase_if(shapes, [](const KernelShape& s) { return s.xnumel <= 0 || s.rnumel <= 0; });
  return shapes;
}

namespace {

// The Triton kernel of the dataset's shape among the shapes the kernel-runs file records.
Expected<KernelShape> kernelOfShape(const std::vector<KernelShape>& shapes, std::int64_t xnumel, std::int64_t rnumel) {
  if (shapes.empty()) {
    return Error{
        "the kernel-runs file does not record its kernel's shape (no note 'xnumel = … in the kernel body' "
        "or '… as launched'): it cannot be matched to the dataset's " +
        shapeText(xnumel, rnumel)};
  }
  for (const auto& s : shapes) {
    if (s.xnumel == xnumel && s.rnumel == rnumel) return s;
  }
  std::string theirs;
  for (const auto& s : shapes) {
    theirs += (theirs.empty() ? "" : ", ") + s.kernel + " is " + shapeText(s.xnumel, s.rnumel);
  }
  return Error{"another shape: the Triton kernel " + theirs + " (xnumel × r0_numel), the dataset is " +
               shapeText(xnumel, rnumel) + " (xnumel × rnumel)"};
}

// Live row li and Triton row ti of the same config, both measured, side by side.
FidelityPair fidelityPair(std::size_t li, const LiveRow& ours, std::size_t ti, const triton::MeasuredConfig& t) {
  FidelityPair p;
  p.live_row = static_cast<int>(li);
  p.triton_row = static_cast<int>(ti);
  p.xblock = t.xblock;
  p.rblock = t.r0_block;
  p.num_warps = t.num_warps;
  // One source for both sides: CUPTI's device time when both have it, else CUDA events.
  const bool cupti = ours.measured.kernel_time && t.measured.kernel_time;
  p.ours_us = cupti ? ours.measured.timeUs() : ours.measured.time.median_us;
  p.triton_us = cupti ? t.measured.timeUs() : t.measured.time.median_us;
  p.ratio = p.triton_us / p.ours_us;
  p.triton_bandwidth_GBps = t.measured.bandwidth_GBps;
  p.ours_registers = ours.registers;
  p.triton_registers = t.n_regs;
  p.ours_spills = spills(ours);
  p.triton_spills = t.n_spills > 0;
  return p;
}

// The summary of the pairs: the median time ratio, how many are within the time and register
// tolerances, and how many spill on one side only.
void summarizeFidelity(FamilyFidelity& out) {
  FidelitySummary& s = out.summary;
  s.paired = static_cast<int>(out.pairs.size());
  if (s.paired == 0) return;
  std::vector<double> ratios;
  int time_within = 0;
  int registers_within = 0;
  for (const auto& p : out.pairs) {
    ratios.push_back(p.ratio);
    if (p.ratio >= kFidelityTimeLow && p.ratio <= kFidelityTimeHigh) ++time_within;
    if (p.ours_registers >= 0 && p.triton_registers >= 0) {
      ++s.registers_known;
      const int apart = std::abs(p.ours_registers - p.triton_registers);
      if (apart <= kFidelityRegisterTolerance * p.triton_registers) ++registers_within;
    }
    if (p.ours_spills != p.triton_spills) ++s.one_side_spills;
  }
  // The median by the rule the timings use (mean of the middle two for an even count).
  s.median_ratio = summarizeTimes(std::move(ratios)).median_us;
  s.time_within_pct = 100.0 * time_within / s.paired;
  s.registers_within_pct = s.registers_known > 0 ? 100.0 * registers_within / s.registers_known : 0.0;
}

}  // namespace

Expected<FamilyFidelity> compareWithTriton(const LiveDataset& family, const triton::KernelMeasurements& runs) {
  std::int64_t xnumel = 0;
  std::int64_t rnumel = 0;
  if (!readInteger(family.metaValue("xnumel"), xnumel, false).empty() ||
      !readInteger(family.metaValue("rnumel"), rnumel, false).empty()) {
    return Error{"the live-sweep dataset does not record its shape (no 'xnumel' and 'rnumel' metadata)"};
  }
  auto kernel = kernelOfShape(kernelShapes(runs), xnumel, rnumel);
  if (!kernel) return Error{kernel.error()};

  FamilyFidelity out;
  out.kernel = kernel->kernel;
  out.xnumel = xnumel;
  out.rnumel = rnumel;
  for (std::size_t li = 0; li < family.rows.size(); ++li) {
    const LiveRow& ours = family.rows[li];
    if (!ours.ok()) continue;
    for (std::size_t ti = 0; ti < runs.rows.size(); ++ti) {
      const triton::MeasuredConfig& t = runs.rows[ti];
      if (t.kernel != kernel->kernel || t.yblock != 0 || t.r1_block != 0 || t.xblock != ours.config.xblock ||
          t.r0_block != ours.config.rblock || t.num_warps != ours.config.num_warps) {
        continue;
      }
      if (t.ok() && ours.measured.timeUs() > 0) out.pairs.push_back(fidelityPair(li, ours, ti, t));
      break;  // the first Triton row of the config decides
    }
  }
  summarizeFidelity(out);
  return out;
}

const std::vector<Column<FidelityPair>>& fidelityColumns() {
  using C = Column<FidelityPair>;
  auto integer = [](std::string key, int FidelityPair::*field) {
    return C{std::move(key),
             "",
             "",
             CellKind::kNumber,
             [field](const FidelityPair& p) { return p.*field < 0 ? std::string() : num(p.*field); },
             {}};
  };
  auto decimal = [](std::string key, std::string unit, double FidelityPair::*field, int digits) {
    return C{std::move(key),
             "",
             std::move(unit),
             CellKind::kNumber,
             [field, digits](const FidelityPair& p) { return fixed(p.*field, digits); },
             {}};
  };
  auto flag = [](std::string key, bool FidelityPair::*field) {
    return C{std::move(key),
             "",
             "",
             CellKind::kNumber,
             [field](const FidelityPair& p) { return std::string(p.*field ? "1" : "0"); },
             {}};
  };
  static const std::vector<C> columns = {
      integer("xblock", &FidelityPair::xblock),
      integer("rblock", &FidelityPair::rblock),
      integer("num_warps", &FidelityPair::num_warps),
      decimal("ours_time_us", "µs", &FidelityPair::ours_us, 3),
      decimal("triton_time_us", "µs", &FidelityPair::triton_us, 3),
      decimal("triton_over_ours", "", &FidelityPair::ratio, 3),
      integer("ours_registers", &FidelityPair::ours_registers),
      integer("triton_registers", &FidelityPair::triton_registers),
      flag("ours_spills", &FidelityPair::ours_spills),
      flag("triton_spills", &FidelityPair::triton_spills),
      decimal("triton_bandwidth_GBps", "GB/s", &FidelityPair::triton_bandwidth_GBps, 1),
  };
  return columns;
}

CsvTable fidelityToCsv(const FamilyFidelity& fidelity, const std::vector<std::pair<std::string, std::string>>& meta) {
  std::vector<std::pair<std::string, std::string>> m = {{"kernel", fidelity.kernel},
                                                        {"xnumel", num(fidelity.xnumel)},
                                                        {"rnumel", num(fidelity.rnumel)},
                                                        {"paired", num(fidelity.summary.paired)},
                                                        {"median_ratio", fixed(fidelity.summary.median_ratio, 3)}};
  m.insert(m.end(), meta.begin(), meta.end());
  return columnsToCsv(fidelityColumns(), fidelity.pairs, std::move(m));
}

}  // namespace occx
