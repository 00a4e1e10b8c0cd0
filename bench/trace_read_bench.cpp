// Reading torch.profiler traces of hundreds of MB (readProfilerTrace, what `occx inductor step`
// and the Step tab read): the trace recorded with the gpt2 run (tests/data/inductor/step_gpt2, two
// ProfilerSteps, 2071 events) repeated with shifted times, correlation ids and step numbers until
// the file has the size asked for, plain and gzipped.
//   BM_ReadTrace/<MB>/<gzip>   reads one generated file (default 64 MB, plain and gzipped)
// Run: build/release/bench/trace_read_bench   (figures in docs/benchmarks.md)
// Also: trace_read_bench --make-trace PATH MB [--gzip] writes such a trace, for measuring
// `occx inductor step PATH` with /usr/bin/time -v.
#include <benchmark/benchmark.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/step/profiler_trace.h"

namespace {

using json = nlohmann::json;

const std::string kRecorded = std::string(OCCX_INDUCTOR_FIXTURES_DIR) + "/step_gpt2/trace.pt.trace.json.gz";

json recordedTrace() {
  gzFile f = gzopen(kRecorded.c_str(), "rb");
  if (f == nullptr) {
    std::fprintf(stderr, "trace_read_bench: cannot open %s\n", kRecorded.c_str());
    std::exit(1);
  }
  std::string text;
  char buffer[1 << 16];
  int n = 0;
  while ((n = gzread(f, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
  gzclose(f);
  return json::parse(text);
}

// Writes a trace of at least `bytes` bytes of JSON text: the recorded events, copy after copy, each
// copy later by the recorded span, with its own correlation ids and ProfilerStep numbers.
void writeTrace(const std::string& path, std::size_t bytes, bool gzip) {
  const json recorded = recordedTrace();
  const json& events = recorded["traceEvents"];
  double first = 1e300;
  double last = 0.0;
  std::int64_t max_correlation = 0;
  for (const auto& e : events) {
    if (e.contains("ts")) {
      first = std::min(first, e["ts"].get<double>());
      last = std::max(last, e["ts"].get<double>() + e.value("dur", 0.0));
    }
    if (e.contains("args") && e["args"].contains("correlation")) {
      max_correlation = std::max(max_correlation, e["args"]["correlation"].get<std::int64_t>());
    }
  }
  const double span = last - first + 1000.0;
  gzFile gz = gzip ? gzopen(path.c_str(), "wb6") : nullptr;
  std::FILE* plain = gzip ? nullptr : std::fopen(path.c_str(), "wb");
  if (gzip ? gz == nullptr : plain == nullptr) {
    std::fprintf(stderr, "trace_read_bench: cannot write %s\n", path.c_str());
    std::exit(1);
  }
  std::size_t written = 0;
  auto put = [&](const std::string& s) {
    if (gzip) {
      gzwrite(gz, s.data(), static_cast<unsigned>(s.size()));
    } else {
      std::fwrite(s.data(), 1, s.size(), plain);
    }
    written += s.size();
  };
  json head = recorded;
  head.erase("traceEvents");
  std::string opening = head.dump(1);
  opening.pop_back();  // the closing brace
  put(opening + ",\n  \"traceEvents\": [\n");
  bool comma = false;
  for (int copy = 0; written < bytes; ++copy) {
    for (json e : events) {
      if (e.contains("ts")) e["ts"] = e["ts"].get<double>() + copy * span;
      if (e.contains("args") && e["args"].contains("correlation")) {
        e["args"]["correlation"] = e["args"]["correlation"].get<std::int64_t>() + copy * (max_correlation + 1);
      }
      if (e.contains("id") && e["id"].is_number()) e["id"] = e["id"].get<std::int64_t>() + copy * (max_correlation + 1);
      const std::string name = e.value("name", "");
      if (name.rfind("ProfilerStep#", 0) == 0) {
        e["name"] = "ProfilerStep#" + std::to_string(std::stoi(name.substr(13)) + 2 * copy);
      }
      put(std::string(comma ? ",\n  " : "  ") + e.dump());
      comma = true;
    }
  }
  put("\n  ]\n}\n");
  if (gzip) {
    gzclose(gz);
  } else {
    std::fclose(plain);
  }
}

void BM_ReadTrace(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0)) << 20;
  const bool gzip = state.range(1) != 0;
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("occx-trace-bench-" + std::to_string(::getpid()) + (gzip ? ".json.gz" : ".json")))
                               .string();
  writeTrace(path, bytes, gzip);
  std::int64_t activities = 0;
  std::uint64_t json_bytes = 0;
  for (auto _ : state) {
    auto trace = occx::step::readProfilerTrace(path);
    if (!trace || !trace->problems.empty()) state.SkipWithError("the generated trace did not read cleanly");
    activities = static_cast<std::int64_t>(trace->activities.size());
    json_bytes = trace->json_bytes;
  }
  std::filesystem::remove(path);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(json_bytes));
  state.counters["JSON_MB"] = static_cast<double>(json_bytes) / (1 << 20);
  state.counters["activities"] = static_cast<double>(activities);
}
BENCHMARK(BM_ReadTrace)->Args({64, 0})->Args({64, 1})->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::strcmp(argv[1], "--make-trace") == 0) {
    const bool gzip = argc >= 5 && std::strcmp(argv[4], "--gzip") == 0;
    writeTrace(argv[2], static_cast<std::size_t>(std::atol(argv[3])) << 20, gzip);
    std::printf("wrote %s (%s, %ld MB of JSON text)\n", argv[2], gzip ? "gzipped" : "plain", std::atol(argv[3]));
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
