// occx rblock: Inductor's dynamic RBLOCK-scaling decision under the old, new, review_min and exact
// bounds, with its arithmetic; batch mode over a CSV of configs; the candidate pipeline; the
// keep-halving chain (teaching aid); the grid comparison of the bounds.
#include <iostream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "core/base/atomic_file.h"
#include "core/base/pow2.h"
#include "core/inductor/candidates.h"
#include "core/inductor/rblock_scaling.h"
#include "core/inductor/teaching.h"
#include "core/inductor/report.h"

namespace occx::cli {
namespace {

using namespace occx::inductor;

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
  bool json = false;
  std::string csv;
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

std::string yesNo(bool b) { return b ? "yes" : "no"; }

// Range checks that name the option (exit 2). Returns an empty string when all pass.
std::string checkOptions(const RblockOpts& o, const Device& dev) {
  auto pow2 = [](std::int64_t v) { return isPowerOfTwo(v); };
  if (o.xnumel < 1 || o.xnumel > 2147483647) return "--xnumel " + std::to_string(o.xnumel) + " is out of range: allowed 1 … 2147483647";
  if (o.rnumel < 1 || o.rnumel > 2147483647) return "--rnumel " + std::to_string(o.rnumel) + " is out of range: allowed 1 … 2147483647";
  if (o.r1numel < 0 || o.r1numel > 2147483647) {
    return "--r1numel " + std::to_string(o.r1numel) + " is out of range: allowed 0 (one reduction dimension) … 2147483647";
  }
  if (!pow2(o.xblock) || o.xblock > 4096) return "--xblock " + std::to_string(o.xblock) + " is out of range: allowed a power of two 1 … 4096";
  if (!pow2(o.rblock) || o.rblock > 65536) return "--rblock " + std::to_string(o.rblock) + " is out of range: allowed a power of two 1 … 65536";
  if (o.r1_block != 0 && (!pow2(o.r1_block) || o.r1_block > 32768)) {
    return "--r1-block " + std::to_string(o.r1_block) + " is out of range: allowed 0 (none) or a power of two 1 … 32768";
  }
  const int max_warps = dev.arch.max_threads_per_block / dev.warpSize();
  if (!pow2(o.num_warps) || o.num_warps > max_warps) {
    return "--num-warps " + std::to_string(o.num_warps) + " is out of range: allowed a power of two 1 … " + std::to_string(max_warps);
  }
  if (o.num_stages < 1 || o.num_stages > 8) return "--num-stages " + std::to_string(o.num_stages) + " is out of range: allowed 1 … 8";
  if (o.nregs && (*o.nregs < 1 || *o.nregs > dev.arch.max_registers_per_thread)) {
    return "--nregs " + std::to_string(*o.nregs) + " is out of range: allowed 1 … " + std::to_string(dev.arch.max_registers_per_thread) +
           " registers per thread (omit it when unknown)";
  }
  if (o.nspills && (*o.nspills < 0 || *o.nspills > (1 << 20))) {
    return "--nspills " + std::to_string(*o.nspills) + " is out of range: allowed 0 … 1048576 (omit it when unknown)";
  }
  const std::int64_t smem = dev.arch.shared_memory_per_block_optin;
  if (o.shared_bytes < 0 || o.shared_bytes > smem) {
    return "--shared-bytes " + std::to_string(o.shared_bytes) + " is out of range: allowed 0 … " + std::to_string(smem);
  }
  if (o.chain < 0 || o.chain > 32) return "--chain " + std::to_string(o.chain) + " is out of range: allowed 1 … 32 links (0 = none)";
  if (o.num_load < 0 || o.num_load > 1000) return "--num-load " + std::to_string(o.num_load) + " is out of range: allowed 0 … 1000";
  if (o.num_reduction < 0 || o.num_reduction > 1000) {
    return "--num-reduction " + std::to_string(o.num_reduction) + " is out of range: allowed 0 … 1000";
  }
  return {};
}

int runCompareGrid(Context& ctx, const RblockOpts& o, const Device& dev, const DecisionOptions& dopt) {
  auto g = compareGrid(dev, dopt);
  if (!g) {
    ctx.err << "occx rblock: " << g.error() << "\n";
    return kExitUsage;
  }
  CsvTable t;
  t.meta = {{"device", dev.label}, {"profile", std::string(profileInfo(dopt.profile).key)},
            {"grid", "n_regs 33..255 x num_warps {1,2,4,8,16,32} x total blocks {64..65536, powers of two}; XBLOCK 1, R0_BLOCK 2048"}};
  t.header = {"num_warps", "points", "old_vs_new_differ", "new_vs_exact_differ", "new_vs_exact_differ_launchable", "unlaunchable_points",
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
  for (const auto& [w, c] : g->by_num_warps) t.rows.push_back(row(std::to_string(w), c));
  t.rows.push_back(row("all", g->total));
  if (o.json) {
    nlohmann::json j;
    j["device"] = dev.label;
    j["profile"] = std::string(profileInfo(dopt.profile).key);
    j["grid"] = t.meta.back().second;
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : t.rows) {
      nlohmann::json x;
      x[t.header[0]] = r[0];
      for (std::size_t i = 1; i < r.size(); ++i) x[t.header[i]] = std::stoll(r[i]);
      rows.push_back(x);
    }
    j["rows"] = rows;
    ctx.out << j.dump(2) << "\n";
  } else {
    ctx.out << "Grid comparison on " << dev.label << ", profile " << profileInfo(dopt.profile).key << "\n";
    ctx.out << "n_regs 33 … 255 × num_warps {1, 2, 4, 8, 16, 32} × total blocks {64, 128, …, 65536}; XBLOCK 1, R0_BLOCK 2048.\n";
    ctx.out << "A decision differs when one bound scales and the other does not. Unlaunchable: n_regs · 32 · num_warps > "
            << dev.registersPerSm() << " registers per block (exact bound 0).\n\n";
    std::vector<std::vector<std::string>> rows = {t.header};
    rows.insert(rows.end(), t.rows.begin(), t.rows.end());
    printTable(ctx.out, rows);
  }
  if (!o.csv.empty()) return writeCsv(ctx, o.csv, t);
  return kExitOk;
}

int runBatch(Context& ctx, const RblockOpts& o, const Target& t, const DecisionOptions& dopt, const std::vector<Policy>& policies) {
  auto text = readFile(o.input, kMaxCsvBytes);
  if (!text) {
    ctx.err << "occx rblock: --input: " << text.error() << "\n";
    return kExitUsage;
  }
  auto table = parseCsv(*text);
  if (!table) {
    ctx.err << "occx rblock: --input " << o.input << ": " << table.error() << "\n";
    return kExitUsage;
  }
  BatchOptions b;
  b.db = &t.db;
  b.default_gpu = t.gpu ? t.gpu->name : std::string();
  b.sm_override = o.target.sm_count;
  b.policies = policies;
  b.options = dopt;
  if (b.default_gpu.empty()) {
    ctx.err << "occx rblock: --input needs a GPU for rows without a 'gpu' cell: give --gpu NAME (not --cc)\n";
    return kExitUsage;
  }
  auto out = decideCsvBatch(*table, b);
  if (!out) {
    ctx.err << "occx rblock: --input " << o.input << ": " << out.error() << "\n";
    return kExitUsage;
  }
  if (o.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : out->rows) {
      nlohmann::json x;
      for (std::size_t i = 0; i < out->header.size() && i < r.size(); ++i) x[out->header[i]] = r[i];
      rows.push_back(x);
    }
    ctx.out << rows.dump(2) << "\n";
  } else if (o.csv.empty()) {
    ctx.out << toCsv(*out);
  } else {
    ctx.out << "Decided " << out->rows.size() << " configs from " << o.input << " (" << profileInfo(dopt.profile).key << ").\n";
  }
  if (!o.csv.empty()) return writeCsv(ctx, o.csv, *out);
  return kExitOk;
}

void addRblockCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<RblockOpts>();
  auto* cmd = app.add_subcommand("rblock", "Inductor's dynamic RBLOCK-scaling decision under the old, new, review_min and exact bounds");
  o->target.add(*cmd);
  cmd->add_option("--xnumel", o->xnumel, "rows of the reduction (size hint x = next power of two), 1 … 2147483647");
  cmd->add_option("--rnumel", o->rnumel, "reduction length (size hint r = next power of two), 1 … 2147483647");
  cmd->add_option("--r1numel", o->r1numel, "second reduction dimension for 2-D reductions (0 = none)");
  cmd->add_option("--xblock", o->xblock, "XBLOCK, a power of two 1 … 4096");
  cmd->add_option("--rblock", o->rblock, "R0_BLOCK (RBLOCK in the 2023 profile), a power of two 1 … 65536");
  cmd->add_option("--r1-block", o->r1_block, "R1_BLOCK for 2-D reductions (0 = none), a power of two 1 … 32768");
  cmd->add_option("--num-warps", o->num_warps, "num_warps, a power of two 1 … 32");
  cmd->add_option("--num-stages", o->num_stages, "num_stages (1 … 8)");
  cmd->add_option("--nregs", o->nregs, "registers per thread of the compiled kernel (1 … 255); omit when unknown");
  cmd->add_option("--nspills", o->nspills, "spilled registers reported by the compiler (0 … 1048576)");
  cmd->add_option("--shared-bytes", o->shared_bytes, "shared memory per block of the compiled kernel, bytes (exact bound)");
  cmd->add_option("--policy", o->policy, "old | new | review_min | exact | all (default all)");
  cmd->add_option("--profile", o->profile, "inductor-current (default) | inductor-2023");
  cmd->add_option("--cc-gate", o->cc_gate, "auto (the profile's) | 8x (CC 8.x only, the first version) | ge80 (CC >= 8.0 or ROCm)");
  cmd->add_flag("--persistent", o->persistent, "a persistent reduction (never scaled)");
  cmd->add_flag("--deterministic", o->deterministic, "deterministic mode (the current version skips scaling)");
  cmd->add_option("--chain", o->chain, "also print the keep-halving chain, up to N links (teaching aid; Inductor halves once)");
  cmd->add_flag("--candidates", o->candidates, "also print Inductor's candidate configs for the size hints and the pipeline");
  cmd->add_option("--hint", o->hint, "reduction hint for --candidates: inner | outer | outer_tiny | default");
  cmd->add_option("--num-load", o->num_load, "loads in the kernel, for --candidates (0 … 1000)");
  cmd->add_option("--num-reduction", o->num_reduction, "reductions in the kernel, for --candidates (0 … 1000)");
  cmd->add_flag("--max-autotune", o->max_autotune, "max-autotune candidate list, for --candidates");
  cmd->add_flag("--add-persistent-rblock", o->add_persistent_rblock, "add the R0_BLOCK=min(rnumel, 32768) candidate, for --candidates");
  cmd->add_option("--input", o->input, "batch: decide every config of this CSV (one per row)");
  cmd->add_flag("--compare-grid", o->compare_grid, "count differing decisions old vs new and new vs exact over the grid of the closing note");
  cmd->add_flag("--json", o->json, "print JSON instead of text");
  cmd->add_option("--csv", o->csv, "write the result table to this CSV file (atomically)");
  cmd->callback([&ctx, o] {
    ctx.action = [&ctx, o]() -> int {
      auto t = resolveTarget(o->target, defaultGpuName());
      if (!t) {
        ctx.err << "occx rblock: " << t.error() << "\n";
        return kExitUsage;
      }
      if (t->sm_count < 1) {
        ctx.err << "occx rblock: --cc " << o->target.cc << " names no GPU, so the SM count is unknown: give --sms (1 … 1024)\n";
        return kExitUsage;
      }
      auto dev = makeDevice(t->arch, t->sm_count, t->label);
      if (!dev) {
        ctx.err << "occx rblock: " << dev.error() << "\n";
        return kExitUsage;
      }
      auto profile = parseProfile(o->profile);
      if (!profile) {
        ctx.err << "occx rblock: --profile: " << profile.error() << "\n";
        return kExitUsage;
      }
      auto gate = parseCcGate(o->cc_gate);
      if (!gate) {
        ctx.err << "occx rblock: --cc-gate: " << gate.error() << "\n";
        return kExitUsage;
      }
      std::vector<Policy> policies;
      if (o->policy == "all") {
        policies = allPolicies();
      } else {
        auto p = parsePolicy(o->policy);
        if (!p) {
          ctx.err << "occx rblock: --policy: " << p.error() << " or all\n";
          return kExitUsage;
        }
        policies = {*p};
      }
      DecisionOptions dopt;
      dopt.profile = *profile;
      dopt.cc_gate = *gate;

      if (o->compare_grid) return runCompareGrid(ctx, *o, *dev, dopt);
      if (!o->input.empty()) return runBatch(ctx, *o, *t, dopt, policies);

      std::string missing;
      if (o->xnumel == -1) missing += " --xnumel";
      if (o->rnumel == -1) missing += " --rnumel";
      if (o->xblock == -1) missing += " --xblock";
      if (o->rblock == -1) missing += " --rblock";
      if (o->num_warps == -1) missing += " --num-warps";
      if (!missing.empty()) {
        ctx.err << "occx rblock: missing" << missing << " (or use --input FILE or --compare-grid)\n";
        return kExitUsage;
      }
      if (std::string msg = checkOptions(*o, *dev); !msg.empty()) {
        ctx.err << "occx rblock: " << msg << "\n";
        return kExitUsage;
      }
      auto hints = sizeHintsFromNumels(o->xnumel, o->rnumel, o->r1numel);
      if (!hints) {
        ctx.err << "occx rblock: " << hints.error() << "\n";
        return kExitUsage;
      }
      KernelInfo kernel;
      kernel.size_hints = *hints;
      kernel.persistent_reduction = o->persistent;
      kernel.deterministic = o->deterministic;
      ReductionConfig c;
      c.xblock = o->xblock;
      c.r0_block = o->rblock;
      c.r1_block = o->r1_block;
      c.num_warps = o->num_warps;
      c.num_stages = o->num_stages;
      c.n_regs = o->nregs;
      c.n_spills = o->nspills;
      c.shared_bytes = o->shared_bytes;
      c.origin = "input";
      if (auto e = validateConfig(c, *dev, dopt.profile)) {
        ctx.err << "occx rblock: " << e->message << "\n";
        return kExitUsage;
      }
      std::vector<Decision> decisions;
      for (Policy p : policies) {
        auto d = decide(p, c, kernel, *dev, dopt);
        if (!d) {
          ctx.err << "occx rblock: " << d.error() << "\n";
          return kExitUsage;
        }
        decisions.push_back(*d);
      }
      std::vector<ChainStep> chain;
      if (o->chain > 0) {
        auto ch = keepHalvingChain(policies.size() == 1 ? policies[0] : Policy::kNew, c, kernel, *dev, dopt, {}, o->chain);
        if (!ch) {
          ctx.err << "occx rblock: " << ch.error() << "\n";
          return kExitUsage;
        }
        chain = std::move(ch).value();
      }
      std::optional<Pipeline> pipeline;
      if (o->candidates) {
        auto hint = parseReductionHint(o->hint);
        if (!hint) {
          ctx.err << "occx rblock: --hint: " << hint.error() << "\n";
          return kExitUsage;
        }
        PipelineInput in;
        in.kernel = kernel;
        in.hint = *hint;
        in.candidate_options.num_load = o->num_load;
        in.candidate_options.num_reduction = o->num_reduction;
        in.candidate_options.max_autotune = o->max_autotune;
        in.candidate_options.add_persistent_rblock = o->add_persistent_rblock;
        in.policy = policies.size() == 1 ? policies[0] : Policy::kNew;
        in.options = dopt;
        // The given config's compiled facts apply to the candidate with the same launch config.
        auto cands = reductionCandidates(kernel.size_hints, *hint, dopt.profile, in.candidate_options);
        if (!cands) {
          ctx.err << "occx rblock: " << cands.error() << "\n";
          return kExitUsage;
        }
        for (const auto& cand : *cands) {
          if (cand.sameLaunchConfig(c) && c.n_regs) {
            in.compiled.push_back(CompiledFacts{*c.n_regs, c.n_spills.value_or(0), c.shared_bytes});
          } else {
            in.compiled.push_back(std::nullopt);
          }
        }
        auto p = runPipeline(in, *dev);
        if (!p) {
          ctx.err << "occx rblock: " << p.error() << "\n";
          return kExitUsage;
        }
        pipeline = std::move(p).value();
      }

      const ProfileInfo& info = profileInfo(dopt.profile);
      if (o->json) {
        nlohmann::json j;
        j["target"] = dev->label;
        j["profile"] = std::string(info.key);
        j["profile_statement"] = std::string(info.statement);
        j["cc_gate"] = std::string(ccGateName(effectiveCcGate(dopt)));
        j["size_hints"] = {{"x", hints->x}, {"r0", hints->r0}};
        if (hints->r1 > 0) j["size_hints"]["r1"] = hints->r1;
        j["numels"] = {{"xnumel", o->xnumel}, {"rnumel", o->rnumel}};
        j["config"] = configToJson(c, dopt.profile);
        j["register_threshold"] = registerThreshold(*dev);
        nlohmann::json ds = nlohmann::json::array();
        for (const auto& d : decisions) ds.push_back(decisionToJson(d));
        j["decisions"] = ds;
        if (!chain.empty()) {
          nlohmann::json cj = nlohmann::json::array();
          for (const auto& s : chain) {
            cj.push_back({{"config", configToJson(s.config, dopt.profile)}, {"n_regs_assumed", s.n_regs_assumed},
                          {"decision", decisionToJson(s.decision)}});
          }
          j["keep_halving_chain"] = {{"label", std::string(kKeepHalvingLabel)}, {"links", cj}};
        }
        if (pipeline) {
          nlohmann::json pj = nlohmann::json::array();
          for (const auto& e : pipeline->entries) {
            pj.push_back({{"config", configToJson(e.config, dopt.profile)}, {"added_by_scaling", e.added_by_scaling},
                          {"decision", decisionToJson(e.decision)}, {"autotuning", std::string(candidateStateName(e.spill))}});
          }
          j["pipeline"] = {{"note", pipeline->order_note}, {"loop_note", pipeline->pass.note}, {"entries", pj}};
        }
        ctx.out << j.dump(2) << "\n";
      } else {
        auto& out = ctx.out;
        out << "Target:  " << dev->label << ": " << dev->registersPerSm() << " registers/SM, " << dev->maxThreadsPerSm()
            << " threads/SM, warp size " << dev->warpSize() << "\n";
        out << "Profile: " << info.key << " — " << info.statement << "\n";
        out << "CC gate: " << ccGateName(effectiveCcGate(dopt)) << "\n";
        out << "Kernel:  xnumel " << o->xnumel << " → size hint x " << hints->x << ", rnumel " << o->rnumel << " → size hint r "
            << hints->r0;
        if (hints->r1 > 0) out << ", r1numel " << o->r1numel << " → size hint r1 " << hints->r1;
        out << (o->persistent ? " (persistent reduction)" : "") << (o->deterministic ? " (deterministic mode)" : "") << "\n";
        out << "Config:  " << c.str(dopt.profile) << " (" << c.num_warps * dev->warpSize() << " threads), n_regs "
            << (c.n_regs ? std::to_string(*c.n_regs) : std::string("unknown")) << ", n_spills "
            << (c.n_spills ? std::to_string(*c.n_spills) : std::string("unknown")) << "\n";
        out << "Total blocks: ceil(" << hints->x << " / " << c.xblock << ") = " << decisions.front().total_blocks << "\n\n";
        std::vector<std::vector<std::string>> rows = {
            {"policy", "applies", "bound/SM", "capacity", "total blocks", "decision", "new config"}};
        for (const auto& d : decisions) {
          rows.push_back({std::string(policyKey(d.policy)), yesNo(d.applies), d.applies ? std::to_string(d.bound_blocks_per_sm) : "-",
                          d.applies ? std::to_string(d.capacity_blocks) : "-", std::to_string(d.total_blocks),
                          std::string(outcomeName(d.outcome)),
                          d.new_config && d.scales() ? d.halved_kwarg + "=" +
                                                           std::to_string(d.halved_kwarg == "R1_BLOCK" ? d.new_config->r1_block
                                                                                                       : d.new_config->r0_block)
                                                     : "-"});
        }
        printTable(out, rows);
        out << "\nArithmetic:\n";
        for (const auto& d : decisions) {
          out << "  " << policyFormula(d.policy) << "\n";
          if (d.applies) out << "    bound: " << d.bound_arithmetic << "\n";
          out << "    " << d.reason << "\n";
        }
        if (!chain.empty()) {
          out << "\nKeep-halving chain (" << policyKey(chain.front().decision.policy) << "). " << kKeepHalvingLabel << "\n";
          for (std::size_t i = 0; i < chain.size(); ++i) {
            const auto& s = chain[i];
            out << "  " << i << ". " << s.config.str(dopt.profile) << ", n_regs "
                << (s.config.n_regs ? std::to_string(*s.config.n_regs) : std::string("unknown")) << (s.n_regs_assumed ? " (assumed)" : "")
                << ": " << s.decision.reason << "\n";
          }
        }
        if (pipeline) {
          out << "\nCandidate pipeline (hint " << o->hint << ", policy " << policyKey(pipeline->pass.policy) << "):\n";
          out << "  " << pipeline->order_note << "\n  " << pipeline->pass.note << "\n";
          std::vector<std::vector<std::string>> prow = {{"#", "stage", "origin", "config", "n_regs", "n_spills", "decision", "autotuning"}};
          for (std::size_t i = 0; i < pipeline->entries.size(); ++i) {
            const auto& e = pipeline->entries[i];
            prow.push_back({std::to_string(i + 1), e.added_by_scaling ? "added" : "candidate", e.config.origin, e.config.str(dopt.profile),
                            e.config.n_regs ? std::to_string(*e.config.n_regs) : "?",
                            e.config.n_spills ? std::to_string(*e.config.n_spills) : "?", std::string(outcomeName(e.decision.outcome)),
                            std::string(candidateStateName(e.spill))});
          }
          printTable(out, prow);
          for (std::size_t i = 0; i < pipeline->entries.size(); ++i) out << "  #" << i + 1 << ": " << pipeline->entries[i].decision.reason << "\n";
        }
      }
      if (!o->csv.empty()) {
        CsvTable table = decisionsToCsv(decisions);
        table.meta.insert(table.meta.begin(), {"target", dev->label});
        table.meta.push_back({"config", c.str(dopt.profile)});
        table.meta.push_back({"size_hints", "x=" + std::to_string(hints->x) + ", r=" + std::to_string(hints->r0)});
        table.meta.push_back({"n_regs", c.n_regs ? std::to_string(*c.n_regs) : "unknown"});
        return writeCsv(ctx, o->csv, table);
      }
      return kExitOk;
    };
  });
}

const CommandRegistrar kRblock{{"rblock", 20, &addRblockCommand}};

}  // namespace
}  // namespace occx::cli
