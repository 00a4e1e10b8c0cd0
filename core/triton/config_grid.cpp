#include "core/triton/config_grid.h"

#include <algorithm>
#include <sstream>

#include "core/base/pow2.h"
#include "core/base/text.h"

namespace occx::triton {
namespace {

constexpr std::int64_t kMaxBlockElements = std::int64_t{1} << 20;  // Triton: numel of a block tensor
constexpr int kMinElementsPerThread = 1;
constexpr int kMaxElementsPerThread = 64;

bool persistent(const RunKernel& k) {
  return k.module.kind == KernelKind::kPersistentReduction;
}

std::int64_t hint(const RunKernel& k, std::string_view name) {
  const SizeHint* h = k.module.sizeHint(name);
  return h != nullptr && h->value ? *h->value : 0;
}

/// The R tile of a persistent reduction: the r0_ hint's power of two (the kernel's R0_BLOCK).
std::int64_t persistentR(const RunKernel& k) {
  return nextPowerOfTwo(std::max<std::int64_t>(1, hint(k, "r0_")));
}

using inductor::powersOfTwo;

std::optional<Error> supported(const RunKernel& k) {
  if (!k.analysed()) {
    return Error{k.module.name + " is a " + std::string(kernelKindName(k.module.kind)) +
                 " kernel: sweeps are for looped and persistent reductions"};
  }
  if (k.module.sizeHint("y") != nullptr || k.module.sizeHint("r1_") != nullptr) {
    return Error{k.module.name + " has a 2-D tile (" + k.module.sizeHintsText() +
                 "): sweeps cover XBLOCK × R0_BLOCK kernels only"};
  }
  return std::nullopt;
}

Expected<std::vector<int>> parseValues(const std::string& item, const std::string& values, bool pow2, int lo, int hi) {
  std::vector<int> out;
  auto bad = [&](const std::string& why) {
    return Error{"--grid " + item + ": " + why + " (allowed: " + (pow2 ? "powers of two " : "") + std::to_string(lo) +
                 " … " + std::to_string(hi) + ", as \"1,2,4\"" + (pow2 ? " or \"256..4096\"" : "") + ")"};
  };
  auto number = [&](const std::string& t) -> Expected<int> {
    const std::string s = trimmed(t);
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
      return bad("'" + s + "' is not a number");
    const int v = std::stoi(s);
    if (v < lo || v > hi) return bad(std::to_string(v) + " is out of range");
    if (pow2 && !isPowerOfTwo(v)) return bad(std::to_string(v) + " is not a power of two");
    return v;
  };
  if (const auto dots = values.find(".."); dots != std::string::npos) {
    if (!pow2) return bad("a range needs powers of two");
    auto a = number(values.substr(0, dots));
    if (!a) return Error{a.error()};
    auto b = number(values.substr(dots + 2));
    if (!b) return Error{b.error()};
    if (*b < *a) return bad("the range " + values + " is empty");
    return powersOfTwo(*a, *b);
  }
  std::istringstream parts(values);
  std::string part;
  while (std::getline(parts, part, ',')) {
    auto v = number(part);
    if (!v) return Error{v.error()};
    if (std::find(out.begin(), out.end(), *v) == out.end()) out.push_back(*v);
  }
  if (out.empty()) return bad("no values");
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::string SweepConfig::text() const {
  std::string s = "X" + std::to_string(xblock);
  if (r0_block > 0) s += " R" + std::to_string(r0_block);
  s += " w" + std::to_string(num_warps);
  if (num_stages != 1) s += " s" + std::to_string(num_stages);
  return s;
}

bool SweepConfig::sameLaunch(const SweepConfig& o) const {
  return xblock == o.xblock && r0_block == o.r0_block && num_warps == o.num_warps && num_stages == o.num_stages;
}

ConfigGrid defaultConfigGrid(const RunKernel& k) {
  ConfigGrid g;
  g.filtered = true;
  const std::int64_t x = nextPowerOfTwo(std::max<std::int64_t>(1, hint(k, "x")));
  g.num_stages = {1};
  if (persistent(k)) {
    g.xblock = powersOfTwo(1, static_cast<int>(std::min<std::int64_t>(128, x)));
    g.num_warps = powersOfTwo(1, 16);
    return g;
  }
  g.xblock = powersOfTwo(1, static_cast<int>(std::min<std::int64_t>(8, x)));
  const std::int64_t r = nextPowerOfTwo(std::max<std::int64_t>(1, hint(k, "r0_")));
  const int r_hi = static_cast<int>(std::min<std::int64_t>(32768, r));
  g.r0_block = powersOfTwo(std::min(256, r_hi), r_hi);
  g.num_warps = powersOfTwo(4, 32);
  return g;
}

Expected<ConfigGrid> parseConfigGrid(const std::vector<std::string>& items, const RunKernel& k) {
  if (auto e = supported(k)) return *e;
  ConfigGrid g = defaultConfigGrid(k);
  g.filtered = false;
  for (const std::string& arg : items) {
    std::string normalised = arg;
    std::replace(normalised.begin(), normalised.end(), ';', ' ');
    std::istringstream words(normalised);
    std::string item;
    while (words >> item) {
      const auto eq = item.find('=');
      if (eq == std::string::npos) {
        return Error{"--grid " + item +
                     ": expected NAME=VALUES with NAME one of XBLOCK, R0_BLOCK, num_warps, num_stages"};
      }
      const std::string name = item.substr(0, eq);
      const std::string values = item.substr(eq + 1);
      Expected<std::vector<int>> v = Error{""};
      if (name == "XBLOCK") {
        v = parseValues(item, values, true, 1, 4096);
        if (v) g.xblock = *v;
      } else if (name == "R0_BLOCK" || name == "RBLOCK") {
        if (persistent(k)) {
          return Error{"--grid " + item + ": " + k.module.name +
                       " is a persistent reduction: its R0_BLOCK is the whole row (" + std::to_string(persistentR(k)) +
                       "), only XBLOCK, num_warps and num_stages vary"};
        }
        v = parseValues(item, values, true, 1, 65536);
        if (v) g.r0_block = *v;
      } else if (name == "num_warps") {
        v = parseValues(item, values, true, 1, 32);
        if (v) g.num_warps = *v;
      } else if (name == "num_stages") {
        v = parseValues(item, values, false, 1, 8);
        if (v) g.num_stages = *v;
      } else {
        return Error{"--grid " + item + ": unknown axis '" + name +
                     "' (allowed: XBLOCK, R0_BLOCK, num_warps, num_stages)"};
      }
      if (!v) return Error{v.error()};
    }
  }
  return g;
}

namespace {

// Adds c to the configs a sweep wants, or `why` to the reasons of the same launch already there.
void addWantedConfig(std::vector<SweepConfig>& wanted, SweepConfig c, const std::string& why) {
  for (auto& w : wanted) {
    if (w.sameLaunch(c)) {
      if (std::find(w.requested_by.begin(), w.requested_by.end(), why) == w.requested_by.end())
        w.requested_by.push_back(why);
      return;
    }
  }
  c.requested_by = {why};
  wanted.push_back(std::move(c));
}

// How many of a grid's configs were left out, by reason.
struct GridLeftOut {
  int over_hint = 0;
  int thin = 0;
  int thick = 0;
  int too_big = 0;
  int not_dividing = 0;
};

// The grid's configs worth compiling into `wanted`: not beyond the padded size hints (the same
// kernel as the clamped config), within Triton's block size, XBLOCK dividing a mix-order
// reduction's RSPLIT_SIZE and, for a filtered grid, 1 … 64 elements per thread.
GridLeftOut addGridConfigs(const RunKernel& k, const ConfigGrid& grid, std::int64_t x_pad, std::int64_t r_pad,
                           std::vector<SweepConfig>& wanted) {
  GridLeftOut out;
  const bool per = persistent(k);
  const int rsplit = k.module.meta.rsplit_size;
  for (int x : grid.xblock) {
    if (rsplit > 0 && (x > rsplit || rsplit % x != 0)) {  // Inductor asserts RSPLIT_SIZE % XBLOCK == 0
      ++out.not_dividing;
      continue;
    }
    for (int r : per ? std::vector<int>{0} : grid.r0_block) {
      for (int w : grid.num_warps) {
        for (int s : grid.num_stages) {
          SweepConfig c{x, r, w, s, {}};
          const std::int64_t tile = std::int64_t{x} * (per ? persistentR(k) : r);
          const std::int64_t threads = std::int64_t{w} * 32;
          if (x > x_pad || (!per && r > r_pad)) {
            ++out.over_hint;
          } else if (tile > kMaxBlockElements) {
            ++out.too_big;
          } else if (grid.filtered && tile < kMinElementsPerThread * threads) {
            ++out.thin;
          } else if (grid.filtered && tile > kMaxElementsPerThread * threads) {
            ++out.thick;
          } else {
            addWantedConfig(wanted, c, "grid");
          }
        }
      }
    }
  }
  return out;
}

// The plan's notes on the grid's configs left out, one per reason that left any out.
void noteGridLeftOut(const RunKernel& k, const GridLeftOut& n, std::int64_t x_pad, std::int64_t r_pad,
                     SweepPlan& plan) {
  const bool per = persistent(k);
  auto note = [&](int count, const std::string& why) {
    if (count > 0) plan.left_out.push_back(std::to_string(count) + (count == 1 ? " config " : " configs ") + why);
  };
  note(n.over_hint, "with XBLOCK or R0_BLOCK above the size hints' padded numels (x " + std::to_string(x_pad) +
                        (per ? std::string() : ", r0_ " + std::to_string(r_pad)) +
                        "): the same kernel as the clamped config");
  note(n.too_big, "over Triton's 1048576 elements per block");
  if (n.not_dividing > 0) {
    plan.left_out.push_back(
        std::to_string(n.not_dividing) +
        (n.not_dividing == 1 ? " XBLOCK value that does not divide" : " XBLOCK values that do not divide") +
        " the mix-order reduction's RSPLIT_SIZE " + std::to_string(k.module.meta.rsplit_size));
  }
  note(n.thin, "with fewer than 1 element per thread");
  note(n.thick, "with more than 64 elements per thread");
}

// The configs each policy's scaling adds to Inductor's candidates, requested by the policy's name.
void addScaledConfigs(const RunKernel& k, std::vector<SweepConfig>& wanted) {
  const bool per = persistent(k);
  for (const RunConfig& rc : k.configs) {
    if (rc.origin != ConfigOrigin::kCandidate) continue;
    for (inductor::Policy p : inductor::kPolicies) {
      const inductor::Decision* d = rc.decision(p);
      if (d == nullptr || !d->scales() || !d->new_config) continue;
      const auto& n = *d->new_config;
      addWantedConfig(wanted, SweepConfig{n.xblock, per ? 0 : n.r0_block, n.num_warps, n.num_stages, {}},
                      std::string(inductor::policyKey(p)));
    }
  }
}

}  // namespace

Expected<SweepPlan> planSweep(const RunKernel& k, const std::optional<ConfigGrid>& grid, bool policies) {
  if (auto e = supported(k)) return *e;
  SweepPlan plan;
  const bool per = persistent(k);
  const std::int64_t x_pad = nextPowerOfTwo(std::max<std::int64_t>(1, hint(k, "x")));
  const std::int64_t r_pad = nextPowerOfTwo(std::max<std::int64_t>(1, hint(k, "r0_")));
  std::vector<SweepConfig> wanted;
  if (grid) {
    plan.grid = grid->text();
    const GridLeftOut left_out = addGridConfigs(k, *grid, x_pad, r_pad, wanted);
    noteGridLeftOut(k, left_out, x_pad, r_pad, plan);
  }
  if (policies) addScaledConfigs(k, wanted);
  // Configs the run has compiled already are listed apart; the others are to compile.
  for (auto& c : wanted) {
    bool have = false;
    for (const RunConfig& rc : k.configs) {
      const SweepConfig existing{
          rc.config.xblock, per ? 0 : rc.config.r0_block, rc.config.num_warps, rc.config.num_stages, {}};
      if (existing.sameLaunch(c)) have = true;
    }
    (have ? plan.compiled : plan.configs).push_back(std::move(c));
  }
  return plan;
}

}  // namespace occx::triton
