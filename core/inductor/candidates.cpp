#include "core/inductor/candidates.h"

#include <algorithm>
#include <limits>

#include "core/base/format.h"
#include "core/base/pow2.h"
#include "core/base/text.h"

namespace occx::inductor {

namespace {

// a · b, saturating at INT64_MAX (both non-negative).
std::int64_t satMul(std::int64_t a, std::int64_t b) {
  if (a == 0 || b == 0) return 0;
  if (a > std::numeric_limits<std::int64_t>::max() / b) return std::numeric_limits<std::int64_t>::max();
  return a * b;
}

constexpr std::int64_t kMaxX = 4096;    // TRITON_MAX_BLOCK["X"]
constexpr std::int64_t kMaxR0 = 65536;  // TRITON_MAX_BLOCK["R0_"]
constexpr std::int64_t kMaxR1 = 32768;  // TRITON_MAX_BLOCK["R1_"]
constexpr std::int64_t kMaxGridX = 2147483647;

// _num_warps: clamp to [min, max] (max halved for register-intensive kernels), then round up to a
// power of two.
int clampWarps(std::int64_t w, std::int64_t max_w, std::int64_t min_w, bool register_intensive) {
  if (register_intensive) max_w /= 2;
  return static_cast<int>(nextPowerOfTwo(std::min(std::max(w, min_w), max_w)));
}

// triton_config_reduction, current version: x rows and a linear reduction block r unravelled over
// the reduction dimensions (innermost first), shrunk when the whole problem is smaller than the
// tile, num_warps from the tile (or from r for inner reductions).
ReductionConfig currentConfig(const SizeHints& h, std::int64_t x, std::int64_t r, std::optional<int> num_warps,
                              bool register_intensive, ReductionHint hint, std::string origin) {
  // _get_nd_reduction_numels: r clamped to the total reduction size, filled r1_ first, then r0_.
  std::int64_t remaining = std::min(r, h.rTotal());
  std::int64_t r1 = 0;
  if (h.r1 > 0) {
    r1 = std::min(std::min(h.r1, kMaxR1), remaining);
    remaining /= r1;
  }
  std::int64_t r0 = std::min(std::min(h.r0, kMaxR0), remaining);
  x = std::min(x, h.x);
  auto total = [&] { return satMul(satMul(x, r0), r1 > 0 ? r1 : 1); };
  std::int64_t target = total();
  if (satMul(h.x, h.rTotal()) < target) target /= 8;
  while (x < h.x && total() < target) x *= 2;
  while (r0 < h.r0 && total() < target) r0 *= 2;  // sorted(rnumels): r0_ before r1_
  while (r1 > 0 && r1 < h.r1 && total() < target) r1 *= 2;
  std::int64_t w = 0;
  if (num_warps) {
    w = *num_warps;
  } else {
    w = (hint == ReductionHint::kInner ? r : total()) / 128;
  }
  const std::int64_t max_w = r <= 8192 ? 16 : 32;
  const int warps = clampWarps(w, max_w, 2, register_intensive);
  // _check_max_grid_x: grow XBLOCK while blocks × threads would exceed the grid limit.
  std::int64_t blocks = (h.x + x - 1) / x;
  while (satMul(satMul(blocks, warps), 32) > kMaxGridX && x < h.x) {
    x *= 2;
    blocks /= 2;
  }
  // Shrink back to the target, r0_ first.
  while (total() > target && r0 > 1) r0 /= 2;
  while (r1 > 0 && total() > target && r1 > 1) r1 /= 2;
  ReductionConfig c;
  c.xblock = static_cast<int>(std::min(x, kMaxX));
  c.r0_block = static_cast<int>(r0);
  c.r1_block = static_cast<int>(r1);
  c.num_warps = warps;
  c.num_stages = 1;
  c.origin = std::move(origin);
  return c;
}

// triton_config_reduction of the single-RBLOCK era: num_warps = x·r // 128 clamped to 2 … 8.
ReductionConfig config2023(const SizeHints& h, std::int64_t x, std::int64_t r, std::optional<int> num_warps,
                           std::string origin) {
  std::int64_t target = x * r;
  if (satMul(h.x, h.r0) < target) target /= 8;
  x = std::min(x, h.x);
  r = std::min(r, h.r0);
  while (x < h.x && x * r < target) x *= 2;
  while (r < h.r0 && x * r < target) r *= 2;
  std::int64_t w = num_warps ? *num_warps : x * r / 128;
  ReductionConfig c;
  c.xblock = static_cast<int>(std::min(x, kMaxX));
  c.r0_block = static_cast<int>(r);
  c.num_warps = static_cast<int>(nextPowerOfTwo(std::min<std::int64_t>(std::max<std::int64_t>(w, 2), 8)));
  c.origin = std::move(origin);
  return c;
}

void appendUnique(std::vector<ReductionConfig>& out, ReductionConfig c) {
  for (const auto& e : out) {
    if (e.sameLaunchConfig(c)) return;
  }
  out.push_back(std::move(c));
}

// The size hints and kernel counts reductionCandidates accepts: powers of two up to 2^31, counts
// within what a kernel has.
std::optional<Error> checkCandidateInputs(const SizeHints& h, const CandidateOptions& o) {
  if (!isPowerOfTwo(h.x) || h.x > (std::int64_t{1} << 31)) {
    return Error{"size hint x " + num(h.x) + " is out of range: allowed a power of two 1 … 2^31"};
  }
  if (!isPowerOfTwo(h.r0) || h.r0 > (std::int64_t{1} << 31)) {
    return Error{"size hint r " + num(h.r0) + " is out of range: allowed a power of two 1 … 2^31"};
  }
  if (h.r1 != 0 && (!isPowerOfTwo(h.r1) || h.r1 > (std::int64_t{1} << 31))) {
    return Error{"size hint r1 " + num(h.r1) + " is out of range: allowed 0 (none) or a power of two 1 … 2^31"};
  }
  if (o.num_load < 0 || o.num_load > 1000)
    return Error{"num_load " + num(o.num_load) + " is out of range: allowed 0 … 1000"};
  if (o.num_reduction < 0 || o.num_reduction > 1000) {
    return Error{"num_reduction " + num(o.num_reduction) + " is out of range: allowed 0 … 1000"};
  }
  if (o.num_dynamic < 0 || o.num_dynamic > 100)
    return Error{"num_dynamic " + num(o.num_dynamic) + " is out of range: allowed 0 … 100"};
  return std::nullopt;
}

// The candidates of the inductor-2023 profile: one RBLOCK, contiguous / outer / tiny by the hint,
// all six configs under max-autotune or without a hint.
Expected<std::vector<ReductionConfig>> candidates2023(const SizeHints& h, ReductionHint hint,
                                                      const CandidateOptions& o) {
  if (h.r1 != 0)
    return Error{"r1numel: the inductor-2023 profile has one reduction dimension (one RBLOCK kwarg): allowed 0"};
  std::vector<ReductionConfig> out;
  const std::int64_t rnumel = h.rTotal();
  const std::int64_t kMaxR = 2048;
  auto contiguous = config2023(h, 1, (rnumel >= 256 && rnumel < kMaxR) ? rnumel : kMaxR, std::nullopt, "contiguous");
  auto outer = config2023(h, 64, 8, std::nullopt, "outer");
  auto tiny = config2023(h, rnumel <= 256 ? 2 * (256 / rnumel) : 1, std::min(rnumel, kMaxR), std::nullopt, "tiny");
  if (!o.max_autotune && hint != ReductionHint::kDefault) {
    out.push_back(hint == ReductionHint::kInner ? contiguous : hint == ReductionHint::kOuter ? outer : tiny);
    return out;
  }
  for (const auto& c : {contiguous, outer, tiny, config2023(h, 64, 64, std::nullopt, "64×64"),
                        config2023(h, 8, 512, std::nullopt, "8×512"), config2023(h, 64, 4, 8, "64×4")}) {
    appendUnique(out, c);
  }
  return out;
}

// outer_config_opt: XBLOCK, R0_BLOCK and num_warps of the "outer" candidate, by the number of rows,
// of dynamic-shape reductions and of loads.
ReductionConfig outerCandidate(const SizeHints& h, ReductionHint hint, const CandidateOptions& o,
                               bool register_intensive) {
  const std::int64_t rnumel = h.rTotal();
  std::int64_t x_block = 64;
  std::int64_t outer_r = 0;
  std::optional<int> w;
  const std::int64_t x = h.x;
  if (x <= 1024) {
    x_block = std::max<std::int64_t>(std::min<std::int64_t>(x / 128, 8), 2);
    outer_r = std::min<std::int64_t>(rnumel, 64);
  } else if (x / 4096 <= 8) {
    x_block = 16;
    outer_r = 512 / x_block;
  } else if (o.num_dynamic > 1) {
    outer_r = std::max<std::int64_t>(std::min<std::int64_t>(rnumel / 64, 64), 8);
  } else if (o.num_dynamic == 1) {
    outer_r =
        o.num_load >= 3 ? 1 : std::min<std::int64_t>(nextPowerOfTwo(std::max<std::int64_t>(rnumel, 128) / 128), 8);
  } else {
    x_block = std::max<std::int64_t>(std::min<std::int64_t>(256, nextPowerOfTwo(x / 4096)), x_block);
    if (o.num_load < 4 || rnumel <= 128) {
      outer_r = 512 / x_block;
    } else {
      outer_r = rnumel >= 2048 ? 64 : 32;
      x_block = std::min<std::int64_t>(x_block, 32);
      w = 4;
    }
  }
  return currentConfig(h, x_block, outer_r, w, register_intensive, hint, "outer");
}

// The candidates of the current profile: a persistent R0_BLOCK for light kernels, then
// contiguous / outer / tiny by the hint, all six configs under max-autotune or without a hint.
std::vector<ReductionConfig> currentCandidates(const SizeHints& h, ReductionHint hint, const CandidateOptions& o) {
  std::vector<ReductionConfig> out;
  const std::int64_t rnumel = h.rTotal();
  // A register-intensive kernel (many loads + reductions over many rows) gets a smaller maximum
  // R0_BLOCK and half the maximum num_warps.
  std::int64_t max_r0 = 2048;
  bool register_intensive = false;
  const int loads_and_red = o.num_load + o.num_reduction;
  if (h.x >= 1024 && loads_and_red >= 10) {
    max_r0 = 1024;
    register_intensive = true;
  }
  auto make = [&](std::int64_t x, std::int64_t r, std::optional<int> w, bool ri, std::string origin) {
    return currentConfig(h, x, r, w, ri, hint, std::move(origin));
  };
  auto contiguous =
      make(rnumel <= 2048 ? 2 : 1, std::min(rnumel, max_r0), std::nullopt, register_intensive, "contiguous");
  auto tiny =
      make(rnumel <= 256 ? 2 * (256 / rnumel) : 1, std::min(rnumel, max_r0), std::nullopt, register_intensive, "tiny");
  auto outer = outerCandidate(h, hint, o, register_intensive);
  if (o.add_persistent_rblock && loads_and_red <= 8) {
    appendUnique(out, make(std::max<std::int64_t>(4096 / rnumel, 1), std::min<std::int64_t>(rnumel, 32768),
                           std::nullopt, register_intensive, "persistent R0_BLOCK"));
  }
  if (!o.max_autotune && hint != ReductionHint::kDefault) {
    appendUnique(out, hint == ReductionHint::kInner ? contiguous : hint == ReductionHint::kOuter ? outer : tiny);
    return out;
  }
  for (const auto& c : {contiguous, outer, tiny, make(64, 64, std::nullopt, false, "64×64"),
                        make(8, 512, std::nullopt, false, "8×512"), make(64, 4, 8, false, "64×4")}) {
    appendUnique(out, c);
  }
  return out;
}

}  // namespace

std::string_view reductionHintKey(ReductionHint hint) {
  switch (hint) {
    case ReductionHint::kInner:
      return "inner";
    case ReductionHint::kOuter:
      return "outer";
    case ReductionHint::kOuterTiny:
      return "outer_tiny";
    case ReductionHint::kDefault:
      return "default";
  }
  return "default";
}

Expected<ReductionHint> parseReductionHint(std::string_view text) {
  const std::string t = lowerAscii(text);
  if (t == "inner") return ReductionHint::kInner;
  if (t == "outer") return ReductionHint::kOuter;
  if (t == "outer_tiny" || t == "outer-tiny") return ReductionHint::kOuterTiny;
  if (t == "default") return ReductionHint::kDefault;
  return Error{"reduction hint '" + std::string(text) + "' is not known: allowed inner, outer, outer_tiny, default"};
}

std::string candidateStateName(CandidateState state) {
  switch (state) {
    case CandidateState::kNotCandidate:
      return "no";
    case CandidateState::kBenchmarked:
      return "benchmarked";
    case CandidateState::kExcludedSpills:
      return "excluded (spills)";
    case CandidateState::kNotCompiled:
      return "not compiled";
  }
  return "no";
}

Expected<std::vector<ReductionConfig>> reductionCandidates(const SizeHints& h, ReductionHint hint, Profile profile,
                                                           const CandidateOptions& o) {
  if (auto error = checkCandidateInputs(h, o)) return *error;
  if (profile == Profile::kInductor2023) return candidates2023(h, hint, o);
  return currentCandidates(h, hint, o);
}

Expected<Pipeline> runPipeline(const PipelineInput& in, const Device& device) {
  if (in.spill_threshold < 0 || in.spill_threshold > 1000000) {
    return Error{"spill threshold " + num(in.spill_threshold) + " is out of range: allowed 0 … 1000000"};
  }
  Pipeline p;
  p.order_note =
      "Inductor generates the candidates, compiles them, then (before benchmarking) halves the largest R block of "
      "those the "
      "decision selects; the spill filter (n_spills > " +
      num(in.spill_threshold) + ") applies only when benchmarking, so a spilling config is still halved.";
  p.pass.policy = in.policy;
  p.pass.profile = in.options.profile;
  if (in.kernel.persistent_reduction) {
    p.order_note =
        "A persistent reduction has no R loop and no R block: its candidates are not modelled here, and the scaling "
        "step "
        "does not apply.";
    return p;
  }
  auto cands = reductionCandidates(in.kernel.size_hints, in.hint, in.options.profile, in.candidate_options);
  if (!cands) return Error{cands.error()};
  p.candidates = std::move(cands).value();
  if (in.compiled.size() > p.candidates.size()) {
    return Error{"compiled facts for " + num(static_cast<std::int64_t>(in.compiled.size())) +
                 " configs, but there are " + num(static_cast<std::int64_t>(p.candidates.size())) + " candidates"};
  }
  std::vector<ReductionConfig> compiled = p.candidates;
  for (std::size_t i = 0; i < in.compiled.size(); ++i) {
    if (!in.compiled[i]) continue;
    compiled[i].n_regs = in.compiled[i]->n_regs;
    compiled[i].n_spills = in.compiled[i]->n_spills;
    compiled[i].shared_bytes = in.compiled[i]->shared_bytes;
  }
  auto pass = runScalingPass(in.policy, compiled, in.kernel, device, in.options);
  if (!pass) return Error{pass.error()};
  p.pass = std::move(pass).value();
  std::size_t added_index = 0;
  for (const auto& e : p.pass.entries) {
    PipelineEntry row;
    row.config = e.config;
    row.added_by_scaling = e.added_by_pass;
    row.parent = e.parent;
    row.decision = e.decision;
    std::optional<int> spills = e.config.n_spills;
    if (e.added_by_pass) {
      if (added_index < in.compiled_added.size() && in.compiled_added[added_index]) {
        const auto& f = *in.compiled_added[added_index];
        row.config.n_regs = f.n_regs;
        row.config.n_spills = f.n_spills;
        row.config.shared_bytes = f.shared_bytes;
        spills = f.n_spills;
      }
      ++added_index;
    }
    if (!spills) {
      row.spill = CandidateState::kNotCompiled;
      row.spill_reason = "n_spills not known (not compiled here)";
    } else if (*spills > in.spill_threshold) {
      row.spill = CandidateState::kExcludedSpills;
      row.spill_reason =
          num(*spills) + " spilled registers > " + num(in.spill_threshold) + ": timed as infinitely slow, never chosen";
    } else {
      row.spill = CandidateState::kBenchmarked;
      row.spill_reason = num(*spills) + " spilled registers <= " + num(in.spill_threshold) + ": benchmarked";
      ++p.benchmarked;
    }
    p.entries.push_back(std::move(row));
  }
  return p;
}

}  // namespace occx::inductor
