#include "ui/models/rblock_scaling_content.h"

#include <QObject>
#include <QSettings>

#include "core/inductor/report.h"
#include "ui/models/table_model.h"
#include "ui/models/text.h"

namespace occx::ui {

using namespace occx::inductor;

namespace {

const QColor kSkipColor(240, 240, 240);

QColor outcomeColor(Outcome o) {
  if (o == Outcome::kScale) return kScaleColor;
  if (o == Outcome::kNotApplicable) return kSkipColor;
  return {};
}

// "x = 512", or "<b>x = 1024</b> (xnumel 1000 rounded up to a power of two)".
QString sizeHintText(const char* name, std::int64_t numel, std::int64_t hint) {
  return numel == hint ? QObject::tr("%1 = %2").arg(QLatin1String(name)).arg(hint)
                       : QObject::tr("<b>%1 = %2</b> (%3 %4 rounded up to a power of two)")
                             .arg(QLatin1String(name))
                             .arg(hint)
                             .arg(QLatin1String(name[0] == 'x' ? "xnumel" : "rnumel"))
                             .arg(numel);
}

Profile shownProfile(const RblockResult& r) {
  return r.decisions.empty() ? Profile::kInductorCurrent : r.decisions.front().profile;
}

QString nRegsText(const ReductionConfig& config) {
  return config.n_regs ? QString::number(*config.n_regs) : QObject::tr("unknown");
}

// Each policy's decision and the bounds' curves; false (and `r.error`) when one cannot be made.
bool decideEveryPolicy(RblockResult& r, const Device& device, const DecisionOptions& opts) {
  for (Policy p : boundPolicies()) {
    auto d = decide(p, r.config, r.kernel, device, opts);
    if (!d) {
      r.error = q(d.error());
      return false;
    }
    r.decisions.push_back(*d);
  }
  auto curves = boundCurves(r.config, r.kernel, device, opts);
  if (!curves) {
    r.error = q(curves.error());
    return false;
  }
  r.curves = std::move(curves).value();
  return true;
}

// Inductor's candidates for the size hints and hint, the config's own facts used where it is one.
void runCandidatePipeline(RblockResult& r, const RblockInputs& in, const Device& device, const DecisionOptions& opts,
                          const ProfileInfo& info) {
  PipelineInput pin;
  pin.kernel = r.kernel;
  pin.hint = in.hint;
  pin.policy = in.pipeline_policy;
  pin.options = opts;
  auto cands = reductionCandidates(r.kernel.size_hints, in.hint, in.profile, pin.candidate_options);
  bool matched = false;
  if (cands) {
    for (const auto& c : *cands) {
      if (c.sameLaunchConfig(r.config) && r.config.n_regs) {
        pin.compiled.push_back(CompiledFacts{*r.config.n_regs, in.n_spills, in.shared_bytes});
        matched = true;
      } else {
        pin.compiled.push_back(std::nullopt);
      }
    }
  }
  auto pipe = runPipeline(pin, device);
  const bool piped = static_cast<bool>(pipe);
  if (piped) {
    r.pipeline = std::move(pipe).value();
    r.pipeline_note = q(r.pipeline.order_note);
  } else {
    r.pipeline = Pipeline{};
    r.pipeline_note = q(pipe.error());
  }
  if (piped && !in.persistent) {
    r.pipeline_note += matched
                           ? QObject::tr(
                                 " The config above is one of the candidates: its n_regs and n_spills are used for it; "
                                 "the other candidates are not compiled here (n_regs unknown).")
                           : QObject::tr(
                                 " The config above is not one of Inductor's candidates for these size hints and hint; "
                                 "no candidate has n_regs here.");
  }
  r.loop_note = q(
      info.visits_added_configs
          ? std::string_view("Inductor's loop (current version) also visits the configs it has just added, but their "
                             "n_regs is not known until the kernels are loaded after the loop, so it skips them: each "
                             "original config is halved at most once.")
          : std::string_view("Inductor's loop (2023 version) walks only the original configs; the configs it adds are "
                             "never examined."));
}

}  // namespace

void saveRblockInputs(QSettings& s, const RblockInputs& in) {
  s.setValue(QStringLiteral("sms"), in.sm_override);
  s.setValue(QStringLiteral("xnumel"), static_cast<qlonglong>(in.xnumel));
  s.setValue(QStringLiteral("rnumel"), static_cast<qlonglong>(in.rnumel));
  s.setValue(QStringLiteral("xblock"), in.xblock);
  s.setValue(QStringLiteral("rblock"), in.rblock);
  s.setValue(QStringLiteral("num_warps"), in.num_warps);
  s.setValue(QStringLiteral("n_regs"), in.n_regs);
  s.setValue(QStringLiteral("n_regs_known"), in.n_regs_known);
  s.setValue(QStringLiteral("n_spills"), in.n_spills);
  s.setValue(QStringLiteral("shared_bytes"), static_cast<qlonglong>(in.shared_bytes));
  s.setValue(QStringLiteral("profile"), q(profileInfo(in.profile).key));
  s.setValue(QStringLiteral("cc_gate"), static_cast<int>(in.cc_gate));
  s.setValue(QStringLiteral("pipeline_policy"), q(policyKey(in.pipeline_policy)));
  s.setValue(QStringLiteral("hint"), q(reductionHintKey(in.hint)));
  s.setValue(QStringLiteral("persistent"), in.persistent);
  s.setValue(QStringLiteral("deterministic"), in.deterministic);
}

RblockInputs readRblockInputs(QSettings& s, RblockInputs in) {
  auto intOf = [&](const char* key, long long def) { return s.value(QLatin1String(key), def).toLongLong(); };
  in.sm_override = static_cast<int>(intOf("sms", 0));
  in.xnumel = intOf("xnumel", in.xnumel);
  in.rnumel = intOf("rnumel", in.rnumel);
  in.xblock = static_cast<int>(intOf("xblock", in.xblock));
  in.rblock = static_cast<int>(intOf("rblock", in.rblock));
  in.num_warps = static_cast<int>(intOf("num_warps", in.num_warps));
  in.n_regs = static_cast<int>(intOf("n_regs", in.n_regs));
  in.n_regs_known = s.value(QStringLiteral("n_regs_known"), in.n_regs_known).toBool();
  in.n_spills = static_cast<int>(intOf("n_spills", in.n_spills));
  in.shared_bytes = intOf("shared_bytes", in.shared_bytes);
  if (auto p = parseProfile(s.value(QStringLiteral("profile")).toString().toStdString())) in.profile = *p;
  const int gate = static_cast<int>(intOf("cc_gate", static_cast<int>(in.cc_gate)));
  if (gate >= 0 && gate <= 2) in.cc_gate = static_cast<CcGate>(gate);
  if (auto p = parsePolicy(s.value(QStringLiteral("pipeline_policy")).toString().toStdString()))
    in.pipeline_policy = *p;
  if (auto h = parseReductionHint(s.value(QStringLiteral("hint")).toString().toStdString())) in.hint = *h;
  in.persistent = s.value(QStringLiteral("persistent"), in.persistent).toBool();
  in.deterministic = s.value(QStringLiteral("deterministic"), in.deterministic).toBool();
  return in;
}

RblockResult decideRblockScaling(const RblockInputs& in, const ArchLimits& arch, const std::string& gpu_name,
                                 int sm_count) {
  RblockResult r;
  const std::string name = gpu_name.empty() ? "CC " + arch.cc.str() : gpu_name;
  auto dev = makeDevice(arch, sm_count, deviceLabel(name, arch.cc, sm_count));
  if (!dev) {
    r.error = q(dev.error());
    return r;
  }
  const Device& device = *dev;
  r.device = device;
  r.device_info =
      QObject::tr(
          "%1 registers/SM, %2 threads/SM, warp size %3, at most %4 blocks/SM; register threshold %1 // %2 = %5")
          .arg(device.registersPerSm())
          .arg(device.maxThreadsPerSm())
          .arg(device.warpSize())
          .arg(device.arch.max_blocks_per_sm)
          .arg(registerThreshold(device));
  const ProfileInfo& info = profileInfo(in.profile);
  r.profile_statement = q(info.statement);

  auto hints = sizeHintsFromNumels(in.xnumel, in.rnumel);
  if (!hints) {
    r.error = q(hints.error());
    return r;
  }
  // Inductor counts blocks on the size hint, not on xnumel: say so whenever a numel was rounded.
  r.size_hints = QObject::tr("Size hints: %1, %2 — the decision counts blocks as ceil(x / XBLOCK) on the hint.")
                     .arg(sizeHintText("x", in.xnumel, hints->x), sizeHintText("r", in.rnumel, hints->r0));
  r.kernel.size_hints = *hints;
  r.kernel.persistent_reduction = in.persistent;
  r.kernel.deterministic = in.deterministic;
  r.config.xblock = in.xblock;
  r.config.r0_block = in.rblock;
  r.config.num_warps = in.num_warps;
  if (in.n_regs_known) r.config.n_regs = in.n_regs;
  r.config.n_spills = in.n_spills;
  r.config.shared_bytes = in.shared_bytes;
  r.config.origin = "input";
  if (auto e = validateConfig(r.config, device, in.profile)) {
    r.error = q(e->message);
    return r;
  }

  DecisionOptions opts;
  opts.profile = in.profile;
  opts.cc_gate = in.cc_gate;
  if (!decideEveryPolicy(r, device, opts)) {
    r.decisions.clear();
    r.curves = {};
    return r;
  }
  runCandidatePipeline(r, in, device, opts, info);
  auto chain = keepHalvingChain(in.pipeline_policy, r.config, r.kernel, device, opts);
  r.chain = chain ? std::move(chain).value() : std::vector<ChainStep>{};
  return r;
}

QString rblockNewBlockText(const Decision& d) {
  if (!d.scales() || !d.new_config) return QStringLiteral("–");
  // Core's Decision names the halved kwarg as text ("R0_BLOCK", "R1_BLOCK", "RBLOCK"), not an enum.
  const int from = d.halved_kwarg == "R1_BLOCK" ? d.new_config->r1_block * 2 : d.new_config->r0_block * 2;
  const int to = d.halved_kwarg == "R1_BLOCK" ? d.new_config->r1_block : d.new_config->r0_block;
  return QStringLiteral("%1 %2 → %3").arg(q(d.halved_kwarg)).arg(from).arg(to);
}

std::vector<RblockRow> rblockDecisionRows(const std::vector<Decision>& decisions) {
  std::vector<RblockRow> rows;
  for (const Decision& d : decisions) {
    rows.push_back({{q(policyKey(d.policy)), d.applies ? QString::number(d.bound_blocks_per_sm) : QStringLiteral("–"),
                     d.applies ? QString::number(d.capacity_blocks) : QStringLiteral("–"),
                     QString::number(d.total_blocks), q(outcomeName(d.outcome)), rblockNewBlockText(d), q(d.reason)},
                    outcomeColor(d.outcome)});
  }
  return rows;
}

std::vector<RblockRow> rblockPipelineRows(const Pipeline& pipeline, Profile profile) {
  std::vector<RblockRow> rows;
  for (std::size_t i = 0; i < pipeline.entries.size(); ++i) {
    const auto& e = pipeline.entries[i];
    rows.push_back(
        {{QString::number(i + 1), e.added_by_scaling ? QObject::tr("added by scaling") : QObject::tr("candidate"),
          q(e.config.origin), q(e.config.str(profile)),
          e.config.n_regs ? QString::number(*e.config.n_regs) : QStringLiteral("?"),
          e.config.n_spills ? QString::number(*e.config.n_spills) : QStringLiteral("?"),
          q(outcomeName(e.decision.outcome)), q(candidateStateName(e.spill)), q(e.decision.reason)},
         outcomeColor(e.decision.outcome)});
  }
  return rows;
}

std::vector<RblockRow> rblockChainRows(const std::vector<ChainStep>& chain, Profile profile) {
  std::vector<RblockRow> rows;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const auto& s = chain[i];
    rows.push_back({{QString::number(i), q(s.config.str(profile)),
                     s.config.n_regs ? QString::number(*s.config.n_regs) +
                                           (s.n_regs_assumed ? QObject::tr(" (assumed)") : QString())
                                     : QStringLiteral("?"),
                     s.decision.applies ? QString::number(s.decision.bound_blocks_per_sm) : QStringLiteral("–"),
                     q(outcomeName(s.decision.outcome)), q(s.decision.reason)},
                    outcomeColor(s.decision.outcome)});
  }
  return rows;
}

QString rblockArithmeticHtml(const RblockResult& r) {
  QString html = QStringLiteral("<p><b>Total blocks</b> = ceil(size hint x / XBLOCK) = ceil(%1 / %2) = %3</p>")
                     .arg(r.kernel.size_hints.x)
                     .arg(r.config.xblock)
                     .arg(r.decisions.empty() ? 0 : r.decisions.front().total_blocks);
  for (const Decision& d : r.decisions) {
    html += QStringLiteral("<p><b>%1</b><br>").arg(q(policyFormula(d.policy)).toHtmlEscaped());
    if (d.applies) html += QObject::tr("bound: %1<br>").arg(q(d.bound_arithmetic).toHtmlEscaped());
    html += q(d.reason).toHtmlEscaped() + QStringLiteral("</p>");
  }
  return html;
}

QString rblockPlotTitle(const RblockResult& r) {
  const int warp_size = r.device ? r.device->warpSize() : 32;
  return QObject::tr(
             "Resident blocks per SM against registers per thread — num_warps %1 (%2 threads), %3 blocks on %4 SMs")
      .arg(r.config.num_warps)
      .arg(r.config.num_warps * warp_size)
      .arg(r.curves.total_blocks)
      .arg(r.device ? r.device->sm_count : 0);
}

int rblockCurrentBound(const RblockResult& r) {
  const int regs = r.config.n_regs ? *r.config.n_regs : 0;
  if (regs > 0 && static_cast<std::size_t>(regs) <= r.curves.points.size()) {
    return r.curves.points[static_cast<std::size_t>(regs - 1)].new_bound;
  }
  return 0;
}

QString rblockExportSubtitle(const RblockResult& r) {
  if (r.decisions.empty() || !r.device) return {};
  return QStringLiteral("%1 · %2, n_regs %3")
      .arg(q(r.device->label), q(r.config.str(r.decisions.front().profile)), nRegsText(r.config));
}

QString rblockSummary(const RblockResult& r) {
  if (r.decisions.empty()) return r.error;
  QString s = rblockExportSubtitle(r);
  for (const Decision& d : r.decisions) {
    if (d.policy != Policy::kOld && d.policy != Policy::kNew) continue;
    s += QStringLiteral(" · %1: %2").arg(q(policyKey(d.policy)), q(outcomeName(d.outcome)));
    if (d.scales()) s += QStringLiteral(" (%1)").arg(rblockNewBlockText(d));
  }
  return s;
}

RblockCsv rblockCsv(const RblockResult& r) {
  const std::string target = r.device ? r.device->label : std::string();
  RblockCsv out;
  out.decisions = decisionsToCsv(r.decisions);
  out.decisions.meta.insert(out.decisions.meta.begin(), {"target", target});
  out.decisions.meta.push_back({"config", r.config.str(shownProfile(r))});
  out.decisions.meta.push_back(
      {"registers_per_thread", r.config.n_regs ? std::to_string(*r.config.n_regs) : "unknown"});
  out.decisions.meta.push_back({"size_hint_x", std::to_string(r.kernel.size_hints.x)});
  out.curves = inductor::curvesToCsv(r.curves);
  out.curves.meta.insert(out.curves.meta.begin(), {"target", target});
  out.pipeline = pipelineToCsv(r.pipeline);
  out.pipeline.meta.insert(out.pipeline.meta.begin(), {"target", target});
  return out;
}

}  // namespace occx::ui
