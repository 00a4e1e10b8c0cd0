#include "core/triton/sweep_cache.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <system_error>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/base/format.h"
#include "core/base/user_cache.h"
#include "core/kernels/compile_cache.h"

namespace occx::triton {
namespace {

/// FNV-1a of the key's words (the compile cache's hash): the file name; the words themselves are in
/// the file's metadata.
std::string keyHash(const SweepCacheKey& key) {
  std::string words;
  for (const std::string& part : {key.device, key.driver, key.module, std::to_string(key.seed), key.method}) {
    words += part + '\x1f';
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(words)));
  return hex;
}

const std::vector<std::pair<std::string, std::string SweepCacheKey::*>>& keyFields() {
  static const std::vector<std::pair<std::string, std::string SweepCacheKey::*>> kFields = {
      {"cache_device", &SweepCacheKey::device},
      {"cache_driver", &SweepCacheKey::driver},
      {"cache_module", &SweepCacheKey::module},
      {"cache_method", &SweepCacheKey::method}};
  return kFields;
}

bool keyMatches(const CsvTable& table, const SweepCacheKey& key) {
  for (const auto& [name, field] : keyFields()) {
    if (table.metaValue(name) != key.*field) return false;
  }
  return table.metaValue("cache_seed") == std::to_string(key.seed);
}

/// A row worth keeping: it ran, or the config itself failed (not skipped, not cancelled).
bool ran(const MeasuredConfig& r) {
  const RunStatus s = r.measured.status;
  return s != RunStatus::kSkipped && s != RunStatus::kCancelled;
}

}  // namespace

std::string sweepMethodKey(const RunOptions& o) {
  return "warm-up " + std::to_string(o.min_warmup_runs) + " runs/" + fixed(o.warmup_ms, 1) + " ms; timed " +
         std::to_string(o.min_timed_runs) + "-" + std::to_string(o.max_timed_runs) + " runs/" + fixed(o.timed_ms, 1) +
         " ms; " + (o.flush_l2 ? "L2 flushed" : "L2 not flushed") + "; " + (o.warm ? "warm" : "no warm") + "; " +
         (o.check ? "checked" : "not checked") + "; " + (o.cupti_activity ? "CUPTI" : "events only") +
         (o.cupti_metrics ? " with metrics" : "");
}

SweepCache::SweepCache(std::string dir) : dir_(std::move(dir)) {}

std::string SweepCache::defaultDir() {
  const std::string base = userCacheDirectory();
  return base.empty() ? std::string() : base + "/sweeps";
}

std::string SweepCache::pathOf(const SweepCacheKey& key) const {
  return dir_ + "/" + key.module.substr(0, 12) + "-" + keyHash(key) + ".csv";
}

std::vector<MeasuredConfig> SweepCache::load(const SweepCacheKey& key) const {
  auto text = readFile(pathOf(key), kMaxCsvBytes);
  if (!text) return {};
  auto table = parseCsv(*text);
  if (!table || !keyMatches(*table, key)) return {};
  auto m = measurementsFromCsv(*table);
  if (!m) return {};
  std::vector<MeasuredConfig> rows;
  for (auto& r : m->rows) {
    if (r.module == key.module && ran(r)) rows.push_back(std::move(r));
  }
  return rows;
}

Expected<int> SweepCache::store(const SweepCacheKey& key, const std::vector<MeasuredConfig>& rows) const {
  std::map<std::string, MeasuredConfig> by_config;
  for (auto& r : load(key)) by_config[r.kernel + " " + r.configText()] = std::move(r);
  int added = 0;
  for (const MeasuredConfig& r : rows) {
    if (r.module != key.module || !ran(r)) continue;
    by_config[r.kernel + " " + r.configText()] = r;
    ++added;
  }
  KernelMeasurements all;
  for (const auto& m : keyFields()) all.meta.emplace_back(m.first, key.*(m.second));
  all.meta.emplace_back("cache_seed", std::to_string(key.seed));
  for (auto& [config, r] : by_config) all.rows.push_back(r);
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return Error{"the sweep cache " + dir_ + " cannot be created: " + ec.message()};
  auto written = writeFileAtomically(pathOf(key), toCsv(measurementsToCsv(all)));
  if (!written) return Error{written.error()};
  return added;
}

}  // namespace occx::triton
