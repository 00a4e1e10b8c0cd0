#include "app/cli/options/kernel_options.h"

#include <algorithm>
#include <ostream>

#include "app/cli/cli.h"
#include "app/cli/options/output_options.h"
#include "app/cli/printers/format.h"
#include "core/gpu/gpu_data.h"
#include "core/kernels/compile_cache.h"

namespace occx::cli {

void ArchOptions::add(CLI::App& app) {
  app.add_option("--arch", arch, "architecture to compile for, e.g. sm_90 or 9.0 (default: the GPU's)");
  app.add_option("--gpu", gpu, "GPU by name (see 'occx gpus'): its architecture and SM count, e.g. H100-SXM, A100");
  app.add_option("--sms", sms, "SM count for the RBLOCK decisions (1 … 1024; default: the GPU's)");
}

Expected<Device> resolveArch(const ArchOptions& o, const std::string& default_gpu, std::string& note) {
  const GpuDatabase& db = GpuDatabase::builtin();
  if (o.sms < 0 || o.sms > 1024) return Error{outOfRange("--sms", o.sms, "1 … 1024")};
  std::optional<ComputeCapability> cc;
  if (!o.arch.empty()) {
    auto parsed = ComputeCapability::parse(o.arch);
    if (!parsed) return Error{"--arch: " + parsed.error()};
    if (db.findArch(*parsed) == nullptr) {
      return Error{"--arch " + o.arch + " is not in the GPU data: known compute capabilities are " + db.ccList()};
    }
    cc = *parsed;
  }
  if (!o.gpu.empty() || !cc) {
    const std::string name = o.gpu.empty() ? default_gpu : o.gpu;
    auto dev = deviceForGpu(db, name, o.sms);
    if (!dev) return Error{"--gpu: " + dev.error() + " (all: 'occx gpus')"};
    if (cc && *cc != dev->arch.cc) {
      return Error{"--arch " + o.arch + " does not match --gpu " + o.gpu + " (compute capability " +
                   dev->arch.cc.str() + "): give one of them"};
    }
    if (o.gpu.empty()) note = "no --arch or --gpu given: using " + dev->label;
    return dev;
  }
  const ArchLimits& arch = *db.findArch(*cc);
  int sms = o.sms;
  std::string label;
  if (sms == 0) {
    for (const auto& g : db.gpus()) {
      if (g.cc == *cc) {
        sms = g.sm_count;
        label = "CC " + cc->str() + ", " + std::to_string(sms) + " SMs (as " + g.name + ")";
        note = "SM count " + std::to_string(sms) + " taken from " + g.name + "; use --gpu or --sms to change it";
        break;
      }
    }
    if (sms == 0) {
      return Error{"--arch " + o.arch + ": no GPU of compute capability " + cc->str() +
                   " in the GPU data to take the SM count from: give --sms N (1 … 1024)"};
    }
  } else {
    label = "CC " + cc->str() + ", " + std::to_string(sms) + " SMs";
  }
  return makeDevice(arch, sms, label);
}

void WorkloadOptions::add(CLI::App& app) {
  app.add_option("--workload", workload, "sum, sum_sq, amax, mean_var, log_softmax or fused_k (default sum)");
  app.add_option("--dtype", dtype, "input dtype: fp32, fp16 or bf16 (default fp32; accumulation is fp32)");
  app.add_option("--k", k, "fused_k: number of inputs, 1 … 8 (default 1)");
}

Expected<ParsedWorkload> parseWorkloadOptions(const WorkloadOptions& o) {
  ParsedWorkload p;
  auto w = parseWorkload(o.workload);
  if (!w) return Error{"--workload: " + w.error()};
  auto d = parseDType(o.dtype);
  if (!d) return Error{"--dtype: " + d.error()};
  p.workload = *w;
  p.dtype = *d;
  p.k = o.k;
  if (p.workload == Workload::kFusedK ? (o.k < 1 || o.k > kMaxFusedInputs) : o.k != 1) {
    return Error{"--k " + std::to_string(o.k) + " is out of range: " +
                 (p.workload == Workload::kFusedK ? std::string("fused_k takes 1 … 8 inputs")
                                                  : std::string("only fused_k takes --k (allowed 1)"))};
  }
  return p;
}

Expected<KernelTarget> resolveKernelTarget(const ArchOptions& arch, const WorkloadOptions& work,
                                           const std::string& default_gpu) {
  std::string note;
  auto dev = resolveArch(arch, default_gpu, note);
  if (!dev) return Error{dev.error()};
  auto parsed = parseWorkloadOptions(work);
  if (!parsed) return Error{parsed.error()};
  return KernelTarget{*dev, *parsed, note};
}

std::string uncompilableArchError(const Backend& backend, const ComputeCapability& cc) {
  const auto offered = backend.offeredArchitectures(GpuDatabase::builtin());
  if (std::find(offered.begin(), offered.end(), cc) != offered.end()) return {};
  return "--arch " + cc.smName() + " cannot be compiled by " + backend.compilerVersion() + ": allowed " +
         joined(offered, ", ", [](const ComputeCapability& a) { return a.smName(); });
}

void CacheOptions::add(CLI::App& app) {
  app.add_option("--cache-dir", dir,
                 "compile cache folder (default: $XDG_CACHE_HOME/occupancy-explorer, else ~/.cache/occupancy-explorer)")
      ->check(CLI::Validator(outputFolderProblem, ""));  // before the work, not at its first write
  app.add_flag("--no-cache", disabled, "do not read or write the compile cache");
}

std::string CacheOptions::directory() const {
  if (disabled) return {};
  return dir.empty() ? CompileCache::defaultDirectory() : dir;
}

Expected<std::vector<int>> parseIntList(const std::string& option, const std::string& text) {
  std::vector<int> out;
  std::size_t start = 0;
  auto bad = [&](const std::string& item) {
    return Error{option + " '" + item +
                 "' is not a number or a range: use a list like 1,2,4 or a range of powers of two like 256-8192"};
  };
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const std::size_t dash = item.find('-');
    try {
      std::size_t used = 0;
      if (dash != std::string::npos && dash > 0) {
        const int lo = std::stoi(item.substr(0, dash), &used);
        if (used != dash) return bad(item);
        const std::string hi_text = item.substr(dash + 1);
        const int hi = std::stoi(hi_text, &used);
        if (used != hi_text.size() || lo < 1 || hi < lo || hi > (1 << 20)) return bad(item);
        int v = 1;
        while (v < lo) v *= 2;
        std::size_t added = 0;
        for (; v <= hi; v *= 2, ++added) out.push_back(v);
        if (added == 0) return bad(item);
      } else {
        const int v = std::stoi(item, &used);
        if (used != item.size()) return bad(item);
        out.push_back(v);
      }
    } catch (const std::exception&) {
      return bad(item);
    }
    if (end == text.size()) break;
    start = end + 1;
  }
  return out;
}

void reportCorruptCacheEntries(std::ostream& err, const std::string& cmd, const CompileCache& cache) {
  for (const auto& e : cache.corruptEntries()) {
    err << cmd << ": compile cache: damaged entry " << e.path << " (" << e.reason << "): "
        << (e.replaced ? "recompiled and replaced"
                       : "not replaced (the compile failed, or the new entry could not be written)")
        << "\n";
  }
}

}  // namespace occx::cli
