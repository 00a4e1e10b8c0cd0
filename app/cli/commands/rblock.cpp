// occx rblock: Inductor's dynamic RBLOCK-scaling decision under the old, new, review_min and exact
// bounds, with its arithmetic; batch mode over a CSV of configs; the candidate pipeline; the
// keep-halving chain (teaching aid); the grid comparison of the bounds.
#include <algorithm>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/options/output_options.h"
#include "app/cli/printers/printer.h"
#include "core/base/atomic_file.h"
#include "core/base/pow2.h"
#include "core/inductor/candidates.h"
#include "core/inductor/rblock_scaling.h"
#include "core/inductor/report.h"
#include "core/inductor/teaching.h"
#include "core/sweep/compile_sweep_dataset.h"

namespace occx::cli {
namespace {

using namespace occx::inductor;

constexpr const char* kRblockCmd = "occx rblock";

struct RblockOpts {
  TargetOptions target;
  std::int64_t xnumel = -1;
  std::int64_t rnumel = -1;
  std::int64_t r1numel = 0;
  int xblock = -1;
  int rblock = -1;
  int r1_block = 0;
  int num_warps = -1;
  int num_stages = 1;
  std::optional<int> nregs;    ///< unset: the compiled kernel's registers are unknown
  std::optional<int> nspills;  ///< unset: unknown
  std::int64_t shared_bytes = 0;
  std::string policy = "all";
  std::string profile = "inductor-current";
  std::string cc_gate = "auto";
  bool persistent = false;
  bool deterministic = false;
  OutputOptions output;
  std::string input;
  bool compare_grid = false;
  int chain = 0;
  bool candidates = false;
  std::string hint = "default";
  int num_load = 0;
  int num_reduction = 0;
  bool max_autotune = false;
  bool add_persistent_rblock = false;
};

/// What every mode needs: the target, its device, the decision options and the policies asked for.
struct Setup {
  Target target;
  Device dev;
  DecisionOptions dopt;
  std::vector<Policy> policies;
};

/// The answer for one config: its kernel facts, the decisions and what --chain / --candidates add.
struct Answer {
  SizeHints hints;
  KernelInfo kernel;
  ReductionConfig config;
  std::vector<Decision> decisions;
  std::vector<ChainStep> chain;
  std::optional<Pipeline> pipeline;
};

std::string yesNo(bool b) {
  return b ? "yes" : "no";
}

// ---- options ------------------------------------------------------------------------------------

void addConfigOptions(CLI::App& cmd, RblockOpts& o) {
  cmd.add_option("--xnumel", o.xnumel, "rows of the reduction (size hint x = next power of two), 1 … 2147483647");
  cmd.add_option("--rnumel", o.rnumel, "reduction length (size hint r = next power of two), 1 … 2147483647");
  cmd.add_option("--r1numel", o.r1numel, "second reduction dimension for 2-D reductions (0 = none)");
  cmd.add_option("--xblock", o.xblock, "XBLOCK, a power of two 1 … 4096");
  cmd.add_option("--rblock", o.rblock, "R0_BLOCK (RBLOCK in the 2023 profile), a power of two 1 … 65536");
  cmd.add_option("--r1-block", o.r1_block, "R1_BLOCK for 2-D reductions (0 = none), a power of two 1 … 32768");
  cmd.add_option("--num-warps", o.num_warps, "num_warps, a power of two 1 … 32");
  cmd.add_option("--num-stages", o.num_stages, "num_stages (1 … 8)");
  cmd.add_option("--nregs", o.nregs, "registers per thread of the compiled kernel (1 … 255); omit when unknown");
  cmd.add_option("--nspills", o.nspills, "spilled registers reported by the compiler (0 … 1048576)");
  cmd.add_option("--shared-bytes", o.shared_bytes,
                 "shared memory per block of the compiled kernel, bytes (exact bound)");
}

void addPolicyOptions(CLI::App& cmd, RblockOpts& o) {
  cmd.add_option("--policy", o.policy, "old | new | review_min | exact | all (default all)");
  cmd.add_option("--profile", o.profile, "inductor-current (default) | inductor-2023");
  cmd.add_option("--cc-gate", o.cc_gate,
                 "auto (the profile's) | 8x (CC 8.x only, the first version) | ge80 (CC >= 8.0 or ROCm)");
  cmd.add_flag("--persistent", o.persistent, "a persistent reduction (never scaled)");
  cmd.add_flag("--deterministic", o.deterministic, "deterministic mode (the current version skips scaling)");
}

void addExtraOptions(CLI::App& cmd, RblockOpts& o) {
  cmd.add_option("--chain", o.chain,
                 "also print the keep-halving chain, up to N links (teaching aid; Inductor halves once)");
  cmd.add_flag("--candidates", o.candidates,
               "also print Inductor's candidate configs for the size hints and the pipeline");
  cmd.add_option("--hint", o.hint, "reduction hint for --candidates: inner | outer | outer_tiny | default");
  cmd.add_option("--num-load", o.num_load, "loads in the kernel, for --candidates (0 … 1000)");
  cmd.add_option("--num-reduction", o.num_reduction, "reductions in the kernel, for --candidates (0 … 1000)");
  cmd.add_flag("--max-autotune", o.max_autotune, "max-autotune candidate list, for --candidates");
  cmd.add_flag("--add-persistent-rblock", o.add_persistent_rblock,
               "add the R0_BLOCK=min(rnumel, 32768) candidate, for --candidates");
}

// Range checks that name the option (exit 2). Returns an empty string when all pass.
std::string checkOptions(const RblockOpts& o, const Device& dev) {
  auto pow2 = [](std::int64_t v) { return isPowerOfTwo(v); };
  if (o.xnumel < 1 || o.xnumel > 2147483647) return outOfRange("--xnumel", o.xnumel, "1 … 2147483647");
  if (o.rnumel < 1 || o.rnumel > 2147483647) return outOfRange("--rnumel", o.rnumel, "1 … 2147483647");
  if (o.r1numel < 0 || o.r1numel > 2147483647)
    return outOfRange("--r1numel", o.r1numel, "0 (one reduction dimension) … 2147483647");
  if (!pow2(o.xblock) || o.xblock > 4096) return outOfRange("--xblock", o.xblock, "a power of two 1 … 4096");
  if (!pow2(o.rblock) || o.rblock > 65536) return outOfRange("--rblock", o.rblock, "a power of two 1 … 65536");
  if (o.r1_block != 0 && (!pow2(o.r1_block) || o.r1_block > 32768)) {
    return outOfRange("--r1-block", o.r1_block, "0 (none) or a power of two 1 … 32768");
  }
  const int max_warps = dev.arch.max_threads_per_block / dev.warpSize();
  if (!pow2(o.num_warps) || o.num_warps > max_warps) {
    return outOfRange("--num-warps", o.num_warps, "a power of two 1 … " + std::to_string(max_warps));
  }
  if (o.num_stages < 1 || o.num_stages > 8) return outOfRange("--num-stages", o.num_stages, "1 … 8");
  if (o.nregs && (*o.nregs < 1 || *o.nregs > dev.arch.max_registers_per_thread)) {
    return outOfRange(
        "--nregs", *o.nregs,
        "1 … " + std::to_string(dev.arch.max_registers_per_thread) + " registers per thread (omit it when unknown)");
  }
  if (o.nspills && (*o.nspills < 0 || *o.nspills > (1 << 20))) {
    return outOfRange("--nspills", *o.nspills, "0 … 1048576 (omit it when unknown)");
  }
  const std::int64_t smem = dev.arch.shared_memory_per_block_optin;
  if (o.shared_bytes < 0 || o.shared_bytes > smem)
    return outOfRange("--shared-bytes", o.shared_bytes, "0 … " + std::to_string(smem));
  if (o.chain < 0 || o.chain > 32) return outOfRange("--chain", o.chain, "1 … 32 links (0 = none)");
  if (o.num_load < 0 || o.num_load > 1000) return outOfRange("--num-load", o.num_load, "0 … 1000");
  if (o.num_reduction < 0 || o.num_reduction > 1000) return outOfRange("--num-reduction", o.num_reduction, "0 … 1000");
  return {};
}

// The target, the device and the decision options; errors are usage errors.
Expected<Setup> setUp(const RblockOpts& o, const std::string& default_gpu) {
  auto t = resolveTarget(o.target, default_gpu);
  if (!t) return Error{t.error()};
  if (t->sm_count < 1)
    return Error{"--cc " + o.target.cc + " names no GPU, so the SM count is unknown: give --sms (1 … 1024)"};
  auto dev = makeDevice(t->arch, t->sm_count, t->label);
  if (!dev) return Error{dev.error()};
  auto profile = parseProfile(o.profile);
  if (!profile) return Error{"--profile: " + profile.error()};
  auto gate = parseCcGate(o.cc_gate);
  if (!gate) return Error{"--cc-gate: " + gate.error()};
  std::vector<Policy> policies;
  if (o.policy == "all") {
    policies = boundPolicies();
  } else {
    auto p = parsePolicy(o.policy);
    if (!p) return Error{"--policy: " + p.error() + " or all"};
    if (*p == Policy::kSpills) {
      return Error{
          "--policy: spills is a decision rule without an occupancy bound (occx inductor show and run apply it): "
          "allowed old, "
          "new, review_min, exact or all"};
    }
    policies = {*p};
  }
  DecisionOptions dopt;
  dopt.profile = *profile;
  dopt.cc_gate = *gate;
  return Setup{std::move(t).value(), *dev, dopt, policies};
}

// ---- --compare-grid and --input -----------------------------------------------------------------

CsvTable gridTable(const GridComparison& g, const Device& dev, const DecisionOptions& dopt) {
  CsvTable t;
  t.meta = {{"device", dev.label},
            {"profile", std::string(profileInfo(dopt.profile).key)},
            {"grid",
             "n_regs 33..255 x num_warps {1,2,4,8,16,32} x total blocks {64..65536, powers of two}; XBLOCK 1, R0_BLOCK "
             "2048"}};
  t.header = {"num_warps",
              "points",
              "old_vs_new_differ",
              "new_vs_exact_differ",
              "new_vs_exact_differ_launchable",
              "unlaunchable_points",
              "new_vs_review_min_differ"};
  auto row = [](const std::string& w, const GridCounts& c) {
    return std::vector<std::string>{w,
                                    std::to_string(c.points),
                                    std::to_string(c.old_vs_new),
                                    std::to_string(c.new_vs_exact),
                                    std::to_string(c.new_vs_exact_launchable),
                                    std::to_string(c.unlaunchable),
                                    std::to_string(c.new_vs_review_min)};
  };
  for (const auto& [w, c] : g.by_num_warps) t.rows.push_back(row(std::to_string(w), c));
  t.rows.push_back(row("all", g.total));
  return t;
}

int runCompareGrid(Context& ctx, const RblockOpts& o, const Device& dev, const DecisionOptions& dopt) {
  auto g = compareGrid(dev, dopt);
  if (!g) return fail(ctx, kRblockCmd, g.error());
  const CsvTable t = gridTable(*g, dev, dopt);
  if (o.output.json) {
    // The first column names the num_warps (or "all"); the others are counts.
    auto cell = [](const std::string& text, std::size_t column) -> nlohmann::json {
      if (column == 0) return text;
      return std::stoll(text);
    };
    printJson(ctx.out, {{"device", dev.label},
                        {"profile", std::string(profileInfo(dopt.profile).key)},
                        {"grid", t.meta.back().second},
                        {"rows", rowsToJson(t, cell)}});
  } else if (o.output.text()) {
    ctx.out << "Grid comparison on " << dev.label << ", profile " << profileInfo(dopt.profile).key << "\n";
    ctx.out << "n_regs 33 … 255 × num_warps {1, 2, 4, 8, 16, 32} × total blocks {64, 128, …, 65536}; XBLOCK 1, "
               "R0_BLOCK 2048.\n";
    ctx.out
        << "A decision differs when one bound scales and the other does not. Unlaunchable: n_regs · 32 · num_warps > "
        << dev.registersPerSm() << " registers per block (exact bound 0).\n\n";
    TextTablePrinter(ctx.out).print(t);
  }
  if (!o.output.csv.empty()) return writeCsv(ctx, o.output.csv, t);
  return kExitOk;
}

// A compile-sweep CSV (`occx sweep --csv`) as batch input: its configs with their registers, on the
// sweep's device (its architecture and SM count; --sms replaces the count). --gpu or --cc may name
// another device of the same architecture, whose register counts these are.
Expected<CsvTable> sweepBatch(const RblockOpts& o, const Setup& s, const CsvTable& table, BatchOptions& b) {
  auto sweep = compileSweepFromCsv(table, s.target.db);
  if (!sweep) return Error{sweep.error()};
  if (!o.target.gpu.empty() || !o.target.cc.empty()) {
    if (s.dev.arch.cc != sweep->arch) {
      return Error{"the sweep was compiled for " + sweep->arch.smName() + ", " + s.dev.label +
                   " is another architecture: its register counts would not apply (give a GPU of compute capability " +
                   sweep->arch.str() + ", or neither --gpu nor --cc for the sweep's " + sweep->device_label + ")"};
    }
    b.device = s.dev;
  } else {
    const ArchLimits* arch = s.target.db.findArch(sweep->arch);
    // --sms: "CC 9.0, 100 SMs"; else the sweep's own label.
    const bool sms_given = o.target.sm_count > 0;
    auto dev = makeDevice(*arch, sms_given ? o.target.sm_count : sweep->sm_count,
                          sms_given ? std::string() : sweep->device_label);
    if (!dev) return Error{"the sweep's device: " + dev.error() + (sms_given ? "" : "; give --sms N")};
    b.device = *dev;
  }
  return compileSweepBatchInput(*sweep);
}

// The text table of a batch: the input's columns, the blocks launched and, per policy, its decision
// and the config it scales to (the bounds and the reasons stay in the CSV and JSON).
CsvTable batchDecisionsText(const CsvTable& decided) {
  const auto& h = decided.header;
  std::vector<std::pair<std::size_t, std::string>> keep;  // column, title
  const auto first_derived = std::find(h.begin(), h.end(), "size_hint_x");
  for (auto it = h.begin(); it != first_derived; ++it) keep.emplace_back(it - h.begin(), *it);
  auto add = [&](const std::string& key, const std::string& title) {
    if (auto it = std::find(h.begin(), h.end(), key); it != h.end()) keep.emplace_back(it - h.begin(), title);
  };
  add("total_blocks", "blocks");
  for (Policy p : kPolicies) {  // the policies asked for have their columns; the others are skipped
    const std::string key(policyKey(p));
    add(key + "_decision", key);
    add(key + "_new_config", key + " → config");
  }
  CsvTable t;
  for (const auto& [column, title] : keep) t.header.push_back(title);
  for (const auto& row : decided.rows) {
    std::vector<std::string> cells;
    for (const auto& [column, title] : keep) cells.push_back(column < row.size() ? row[column] : std::string());
    t.rows.push_back(std::move(cells));
  }
  return t;
}

int runBatch(Context& ctx, const RblockOpts& o, const Setup& s) {
  auto text = readFile(o.input, kMaxCsvBytes);
  if (!text) return fail(ctx, kRblockCmd, "--input: " + text.error());
  auto table = parseCsv(*text);
  if (!table) return fail(ctx, kRblockCmd, "--input " + o.input + ": " + table.error());
  BatchOptions b;
  b.db = &s.target.db;
  b.default_gpu = s.target.gpu ? s.target.gpu->name : std::string();
  b.sm_override = o.target.sm_count;
  b.policies = s.policies;
  b.options = s.dopt;
  if (isCompileSweepCsv(*table)) {
    auto input = sweepBatch(o, s, *table, b);
    if (!input) return fail(ctx, kRblockCmd, "--input " + o.input + ": " + input.error());
    table = std::move(input).value();
  } else if (b.default_gpu.empty()) {
    return fail(ctx, kRblockCmd, "--input needs a GPU for rows without a 'gpu' cell: give --gpu NAME (not --cc)");
  }
  auto out = decideCsvBatch(*table, b);
  if (!out) return fail(ctx, kRblockCmd, "--input " + o.input + ": " + out.error());
  if (o.output.json) {
    printJson(ctx.out, rowsToJson(*out));
  } else if (o.output.text()) {
    ctx.out << "Decided " << out->rows.size() << " configs from " << o.input << " (" << profileInfo(s.dopt.profile).key
            << ").\n\n";
    TextTablePrinter(ctx.out).print(batchDecisionsText(*out));
    if (o.output.csv.empty()) ctx.out << "\nThe bounds and the reasons are in --csv FILE and --json.\n";
  }
  if (!o.output.csv.empty()) return writeCsv(ctx, o.output.csv, *out);
  return kExitOk;
}

// ---- one config ---------------------------------------------------------------------------------

std::string missingOptions(const RblockOpts& o) {
  std::string missing;
  if (o.xnumel == -1) missing += " --xnumel";
  if (o.rnumel == -1) missing += " --rnumel";
  if (o.xblock == -1) missing += " --xblock";
  if (o.rblock == -1) missing += " --rblock";
  if (o.num_warps == -1) missing += " --num-warps";
  return missing;
}

ReductionConfig inputConfig(const RblockOpts& o) {
  ReductionConfig c;
  c.xblock = o.xblock;
  c.r0_block = o.rblock;
  c.r1_block = o.r1_block;
  c.num_warps = o.num_warps;
  c.num_stages = o.num_stages;
  c.n_regs = o.nregs;
  c.n_spills = o.nspills;
  c.shared_bytes = o.shared_bytes;
  c.origin = "input";
  return c;
}

// Inductor's candidates for the size hints through the scaling pass. The given config's compiled
// facts apply to the candidate with the same launch config.
Expected<Pipeline> candidatePipeline(const RblockOpts& o, const Answer& a, const Setup& s) {
  auto hint = parseReductionHint(o.hint);
  if (!hint) return Error{"--hint: " + hint.error()};
  PipelineInput in;
  in.kernel = a.kernel;
  in.hint = *hint;
  in.candidate_options.num_load = o.num_load;
  in.candidate_options.num_reduction = o.num_reduction;
  in.candidate_options.max_autotune = o.max_autotune;
  in.candidate_options.add_persistent_rblock = o.add_persistent_rblock;
  in.policy = s.policies.size() == 1 ? s.policies[0] : Policy::kNew;
  in.options = s.dopt;
  auto cands = reductionCandidates(a.kernel.size_hints, *hint, s.dopt.profile, in.candidate_options);
  if (!cands) return Error{cands.error()};
  const ReductionConfig& c = a.config;
  for (const auto& cand : *cands) {
    if (cand.sameLaunchConfig(c) && c.n_regs) {
      in.compiled.push_back(CompiledFacts{*c.n_regs, c.n_spills.value_or(0), c.shared_bytes});
    } else {
      in.compiled.push_back(std::nullopt);
    }
  }
  return runPipeline(in, s.dev);
}

// Decides the config of the options under each policy, with the chain and the pipeline when asked.
Expected<Answer> answer(const RblockOpts& o, const Setup& s) {
  auto hints = sizeHintsFromNumels(o.xnumel, o.rnumel, o.r1numel);
  if (!hints) return Error{hints.error()};
  Answer a;
  a.hints = *hints;
  a.kernel.size_hints = *hints;
  a.kernel.persistent_reduction = o.persistent;
  a.kernel.deterministic = o.deterministic;
  a.config = inputConfig(o);
  if (auto e = validateConfig(a.config, s.dev, s.dopt.profile)) return Error{e->message};
  for (Policy p : s.policies) {
    auto d = decide(p, a.config, a.kernel, s.dev, s.dopt);
    if (!d) return Error{d.error()};
    a.decisions.push_back(*d);
  }
  if (o.chain > 0) {
    const Policy p = s.policies.size() == 1 ? s.policies[0] : Policy::kNew;
    auto ch = keepHalvingChain(p, a.config, a.kernel, s.dev, s.dopt, {}, o.chain);
    if (!ch) return Error{ch.error()};
    a.chain = std::move(ch).value();
  }
  if (o.candidates) {
    auto p = candidatePipeline(o, a, s);
    if (!p) return Error{p.error()};
    a.pipeline = std::move(p).value();
  }
  return a;
}

nlohmann::json answerJson(const RblockOpts& o, const Setup& s, const Answer& a) {
  const ProfileInfo& info = profileInfo(s.dopt.profile);
  const Profile profile = s.dopt.profile;
  nlohmann::json j;
  j["target"] = s.dev.label;
  j["profile"] = std::string(info.key);
  j["profile_statement"] = std::string(info.statement);
  j["cc_gate"] = std::string(ccGateName(effectiveCcGate(s.dopt)));
  j["size_hints"] = {{"x", a.hints.x}, {"r0", a.hints.r0}};
  if (a.hints.r1 > 0) j["size_hints"]["r1"] = a.hints.r1;
  j["numels"] = {{"xnumel", o.xnumel}, {"rnumel", o.rnumel}};
  j["config"] = configToJson(a.config, profile);
  j["register_threshold"] = registerThreshold(s.dev);
  nlohmann::json ds = nlohmann::json::array();
  for (const auto& d : a.decisions) ds.push_back(decisionToJson(d));
  j["decisions"] = ds;
  if (!a.chain.empty()) {
    nlohmann::json cj = nlohmann::json::array();
    for (const auto& st : a.chain) {
      cj.push_back({{"config", configToJson(st.config, profile)},
                    {"n_regs_assumed", st.n_regs_assumed},
                    {"decision", decisionToJson(st.decision)}});
    }
    j["keep_halving_chain"] = {{"label", std::string(kKeepHalvingLabel)}, {"links", cj}};
  }
  if (a.pipeline) {
    nlohmann::json pj = nlohmann::json::array();
    for (const auto& e : a.pipeline->entries) {
      pj.push_back({{"config", configToJson(e.config, profile)},
                    {"added_by_scaling", e.added_by_scaling},
                    {"decision", decisionToJson(e.decision)},
                    {"autotuning", std::string(candidateStateName(e.spill))}});
    }
    j["pipeline"] = {{"note", a.pipeline->order_note}, {"loop_note", a.pipeline->pass.note}, {"entries", pj}};
  }
  return j;
}

std::string knownOrUnknown(const std::optional<int>& v) {
  return v ? std::to_string(*v) : std::string("unknown");
}

void printHeader(std::ostream& out, const RblockOpts& o, const Setup& s, const Answer& a) {
  const Device& dev = s.dev;
  const ProfileInfo& info = profileInfo(s.dopt.profile);
  const ReductionConfig& c = a.config;
  out << "Target:  " << dev.label << ": " << dev.registersPerSm() << " registers/SM, " << dev.maxThreadsPerSm()
      << " threads/SM, warp size " << dev.warpSize() << "\n";
  out << "Profile: " << info.key << " — " << info.statement << "\n";
  out << "CC gate: " << ccGateName(effectiveCcGate(s.dopt)) << "\n";
  out << "Kernel:  xnumel " << o.xnumel << " → size hint x " << a.hints.x << ", rnumel " << o.rnumel
      << " → size hint r " << a.hints.r0;
  if (a.hints.r1 > 0) out << ", r1numel " << o.r1numel << " → size hint r1 " << a.hints.r1;
  out << (o.persistent ? " (persistent reduction)" : "") << (o.deterministic ? " (deterministic mode)" : "") << "\n";
  out << "Config:  " << c.str(s.dopt.profile) << " (" << c.num_warps * dev.warpSize() << " threads), n_regs "
      << knownOrUnknown(c.n_regs) << ", n_spills " << knownOrUnknown(c.n_spills) << "\n";
  out << "Total blocks: ceil(" << a.hints.x << " / " << c.xblock << ") = " << a.decisions.front().total_blocks
      << "\n\n";
}

void printDecisions(std::ostream& out, const Answer& a) {
  TextRows rows = {{"policy", "applies", "bound/SM", "capacity", "total blocks", "decision", "new config"}};
  for (const auto& d : a.decisions) {
    std::string new_config = "-";
    if (d.new_config && d.scales()) {
      new_config = d.halved_kwarg + "=" +
                   std::to_string(d.halved_kwarg == "R1_BLOCK" ? d.new_config->r1_block : d.new_config->r0_block);
    }
    rows.push_back({std::string(policyKey(d.policy)), yesNo(d.applies),
                    d.applies ? std::to_string(d.bound_blocks_per_sm) : "-",
                    d.applies ? std::to_string(d.capacity_blocks) : "-", std::to_string(d.total_blocks),
                    std::string(outcomeName(d.outcome)), new_config});
  }
  printTable(out, rows);
  out << "\nArithmetic:\n";
  for (const auto& d : a.decisions) {
    out << "  " << policyFormula(d.policy) << "\n";
    if (d.applies) out << "    bound: " << d.bound_arithmetic << "\n";
    out << "    " << d.reason << "\n";
  }
}

void printChain(std::ostream& out, const std::vector<ChainStep>& chain, Profile profile) {
  out << "\nKeep-halving chain (" << policyKey(chain.front().decision.policy) << "). " << kKeepHalvingLabel << "\n";
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const auto& s = chain[i];
    out << "  " << i << ". " << s.config.str(profile) << ", n_regs " << knownOrUnknown(s.config.n_regs)
        << (s.n_regs_assumed ? " (assumed)" : "") << ": " << s.decision.reason << "\n";
  }
}

void printPipeline(std::ostream& out, const RblockOpts& o, const Pipeline& pipeline, Profile profile) {
  out << "\nCandidate pipeline (hint " << o.hint << ", policy " << policyKey(pipeline.pass.policy) << "):\n";
  out << "  " << pipeline.order_note << "\n  " << pipeline.pass.note << "\n";
  TextRows rows = {{"#", "stage", "origin", "config", "n_regs", "n_spills", "decision", "autotuning"}};
  for (std::size_t i = 0; i < pipeline.entries.size(); ++i) {
    const auto& e = pipeline.entries[i];
    rows.push_back({std::to_string(i + 1), e.added_by_scaling ? "added" : "candidate", e.config.origin,
                    e.config.str(profile), e.config.n_regs ? std::to_string(*e.config.n_regs) : "?",
                    e.config.n_spills ? std::to_string(*e.config.n_spills) : "?",
                    std::string(outcomeName(e.decision.outcome)), std::string(candidateStateName(e.spill))});
  }
  printTable(out, rows);
  for (std::size_t i = 0; i < pipeline.entries.size(); ++i)
    out << "  #" << i + 1 << ": " << pipeline.entries[i].decision.reason << "\n";
}

CsvTable answerCsv(const Setup& s, const Answer& a) {
  const ReductionConfig& c = a.config;
  CsvTable table = decisionsToCsv(a.decisions);
  table.meta.insert(table.meta.begin(), {"target", s.dev.label});
  table.meta.push_back({"config", c.str(s.dopt.profile)});
  table.meta.push_back({"size_hints", "x=" + std::to_string(a.hints.x) + ", r=" + std::to_string(a.hints.r0)});
  table.meta.push_back({"registers_per_thread", knownOrUnknown(c.n_regs)});
  return table;
}

int runOneConfig(Context& ctx, const RblockOpts& o, const Setup& s) {
  if (std::string missing = missingOptions(o); !missing.empty()) {
    return fail(ctx, kRblockCmd, "missing" + missing + " (or use --input FILE or --compare-grid)");
  }
  if (std::string msg = checkOptions(o, s.dev); !msg.empty()) return fail(ctx, kRblockCmd, msg);
  auto a = answer(o, s);
  if (!a) return fail(ctx, kRblockCmd, a.error());
  if (o.output.json) {
    printJson(ctx.out, answerJson(o, s, *a));
  } else if (o.output.text()) {
    printHeader(ctx.out, o, s, *a);
    printDecisions(ctx.out, *a);
    if (!a->chain.empty()) printChain(ctx.out, a->chain, s.dopt.profile);
    if (a->pipeline) printPipeline(ctx.out, o, *a->pipeline, s.dopt.profile);
  }
  if (!o.output.csv.empty()) return writeCsv(ctx, o.output.csv, answerCsv(s, *a));
  return kExitOk;
}

int runRblock(Context& ctx, const RblockOpts& o) {
  auto s = setUp(o, defaultGpuName(ctx.backend));
  if (!s) return fail(ctx, kRblockCmd, s.error());
  if (o.compare_grid) return runCompareGrid(ctx, o, s->dev, s->dopt);
  if (!o.input.empty()) return runBatch(ctx, o, *s);
  return runOneConfig(ctx, o, *s);
}

void addRblockCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<RblockOpts>();
  auto* cmd = app.add_subcommand(
      "rblock", "Inductor's dynamic RBLOCK-scaling decision under the old, new, review_min and exact bounds");
  o->target.add(*cmd);
  addConfigOptions(*cmd, *o);
  addPolicyOptions(*cmd, *o);
  addExtraOptions(*cmd, *o);
  cmd->add_option(
      "--input", o->input,
      "batch: decide every config of this CSV (one per row): columns xnumel, xblock, rblock, num_warps, nregs, "
      "…, or a compile-sweep CSV of 'occx sweep --csv' (on the sweep's device unless --gpu/--cc name one of its "
      "architecture)");
  cmd->add_flag("--compare-grid", o->compare_grid,
                "count differing decisions old vs new and new vs exact over the grid of the closing note");
  o->output.add(*cmd, "print JSON instead of text", "write the result table to this CSV file (atomically)");
  setAction(*cmd, ctx, o, &runRblock);
}

const CommandRegistrar kRblock{{"rblock", 20, &addRblockCommand}};

}  // namespace
}  // namespace occx::cli
