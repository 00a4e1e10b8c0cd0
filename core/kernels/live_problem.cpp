#include "core/kernels/live_problem.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <mutex>
#include <thread>

namespace occx {

namespace {

int resolveThreads(int threads) {
  if (threads > 0) return threads;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(std::min(hw, 64u));
}

/// Runs body(chunk) for chunk = 0 … chunks-1 on up to `threads` threads.
template <class Body>
void parallelChunks(std::int64_t chunks, int threads, Body body) {
  const int n = static_cast<int>(std::min<std::int64_t>(threads, chunks));
  if (n <= 1) {
    for (std::int64_t c = 0; c < chunks; ++c) body(c);
    return;
  }
  std::atomic<std::int64_t> next{0};
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(n));
  for (int t = 0; t < n; ++t) {
    pool.emplace_back([&] {
      for (std::int64_t c = next++; c < chunks; c = next++) body(c);
    });
  }
  for (auto& th : pool) th.join();
}

/// Rows per chunk: about 4 M elements per chunk, at least one row.
std::int64_t rowsPerChunk(std::int64_t rnumel) {
  return std::max<std::int64_t>(1, (std::int64_t{1} << 22) / std::max<std::int64_t>(rnumel, 1));
}

std::uint64_t liveChunkSeed(std::uint64_t seed, std::uint64_t input, std::uint64_t chunk) {
  // splitmix64 of the three: distinct, well-mixed seeds per (input, chunk).
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (1 + input * 0x10001ull + chunk * 0x1000193ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

std::string ProblemSpec::label() const {
  std::string s = std::string(workloadName(workload));
  if (workload == Workload::kFusedK) s += " K=" + std::to_string(k);
  s += " " + std::string(dtypeName(dtype)) + " " + std::to_string(xnumel) + " × " + std::to_string(rnumel);
  if (fp32_outputs) s += " fp32 outputs";
  return s;
}

std::int64_t HostProblem::inputBytes() const {
  return spec.xnumel * spec.rnumel * dtypeBytes(spec.dtype);
}
std::int64_t HostProblem::outputBytes() const {
  return outputElementCount * dtypeBytes(spec.outputDType());
}

std::optional<Error> checkProblemSpec(const ProblemSpec& spec) {
  auto bytes = bytesMoved(spec.workload, spec.dtype, spec.k, spec.xnumel, spec.rnumel, spec.fp32_outputs);
  if (!bytes) return Error{bytes.error()};
  if (spec.workload != Workload::kFusedK && spec.k != 1) {
    return Error{"K " + std::to_string(spec.k) + " is not allowed for " + std::string(workloadName(spec.workload)) +
                 ": only fused_k takes K inputs (allowed K = 1)"};
  }
  constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();
  if (spec.xnumel > kIntMax / spec.rnumel) {
    return Error{"xnumel × rnumel = " + std::to_string(spec.xnumel) + " × " + std::to_string(spec.rnumel) +
                 " is out of range: allowed at most " + std::to_string(kIntMax) + " elements per tensor"};
  }
  return std::nullopt;
}

Expected<HostProblem> makeHostProblem(const ProblemSpec& spec, int threads) {
  if (auto e = checkProblemSpec(spec)) return *e;
  auto bytes = bytesMoved(spec.workload, spec.dtype, spec.k, spec.xnumel, spec.rnumel, spec.fp32_outputs);
  if (!bytes) return Error{bytes.error()};
  threads = resolveThreads(threads);
  HostProblem p;
  p.spec = spec;
  p.bytes = *bytes;
  p.tolerance = referenceTolerance(spec.workload, spec.outputDType(), spec.rnumel);
  p.outputElementCount = outputElements(spec.workload, spec.xnumel, spec.rnumel);
  const int nin = numInputs(spec.workload, spec.k);
  const int nout = numOutputs(spec.workload, spec.k);
  const auto esize = static_cast<std::size_t>(dtypeBytes(spec.dtype));
  const auto R = static_cast<std::size_t>(spec.rnumel);
  const std::int64_t rows = rowsPerChunk(spec.rnumel);
  const std::int64_t chunks = (spec.xnumel + rows - 1) / rows;

  p.inputs.assign(static_cast<std::size_t>(nin), std::vector<std::uint8_t>(static_cast<std::size_t>(p.inputBytes())));
  p.reference.assign(static_cast<std::size_t>(nout),
                     std::vector<double>(static_cast<std::size_t>(p.outputElementCount)));
  const bool per_element_output = spec.workload == Workload::kLogSoftmax;
  std::mutex error_mutex;
  std::string error;
  parallelChunks(chunks, threads, [&](std::int64_t c) {
    const std::int64_t x0 = c * rows;
    const std::int64_t x1 = std::min(spec.xnumel, x0 + rows);
    const auto n = static_cast<std::size_t>(x1 - x0) * R;
    std::vector<std::vector<double>> decoded(static_cast<std::size_t>(nin));
    for (int i = 0; i < nin; ++i) {
      auto chunk = randomInput(spec.dtype, n,
                               liveChunkSeed(spec.seed, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(c)));
      std::memcpy(p.inputs[static_cast<std::size_t>(i)].data() + static_cast<std::size_t>(x0) * R * esize, chunk.data(),
                  chunk.size());
      decoded[static_cast<std::size_t>(i)] = decodeElements(spec.dtype, chunk.data(), n);
    }
    auto ref = referenceOutputs(spec.workload, spec.k, x1 - x0, spec.rnumel, decoded);
    if (!ref) {
      std::lock_guard<std::mutex> lock(error_mutex);
      error = ref.error();
      return;
    }
    const std::size_t offset = static_cast<std::size_t>(x0) * (per_element_output ? R : 1);
    for (int j = 0; j < nout; ++j) {
      const auto& src = (*ref)[static_cast<std::size_t>(j)];
      std::copy(src.begin(), src.end(),
                p.reference[static_cast<std::size_t>(j)].begin() + static_cast<std::ptrdiff_t>(offset));
    }
  });
  if (!error.empty()) return Error{error};
  return p;
}

OutputCheck checkOutputs(const HostProblem& problem, const std::vector<std::vector<std::uint8_t>>& outputs,
                         int threads) {
  OutputCheck result;
  result.compared_with = "the CPU reference";
  threads = resolveThreads(threads);
  const DType out_type = problem.spec.outputDType();
  const auto esize = static_cast<std::size_t>(dtypeBytes(out_type));
  if (outputs.size() != problem.reference.size()) {
    result.ok = false;
    result.mismatches = 1;
    result.message = "expected " + std::to_string(problem.reference.size()) + " output tensor(s), got " +
                     std::to_string(outputs.size());
    return result;
  }
  constexpr std::int64_t kChunk = std::int64_t{1} << 22;
  for (std::size_t t = 0; t < outputs.size(); ++t) {
    const auto& want = problem.reference[t];
    const auto& got = outputs[t];
    const std::string name = "out" + std::to_string(t);
    if (got.size() != want.size() * esize) {
      result.ok = false;
      ++result.mismatches;
      if (result.message.empty()) {
        result.message =
            name + ": holds " + std::to_string(got.size()) + " bytes, expected " + std::to_string(want.size() * esize);
      }
      continue;
    }
    const auto total = static_cast<std::int64_t>(want.size());
    const std::int64_t chunks = (total + kChunk - 1) / kChunk;
    std::vector<CompareResult> parts(static_cast<std::size_t>(chunks));
    parallelChunks(chunks, threads, [&](std::int64_t c) {
      const std::int64_t b = c * kChunk;
      const std::int64_t e = std::min(total, b + kChunk);
      const auto n = static_cast<std::size_t>(e - b);
      auto g = decodeElements(out_type, got.data() + static_cast<std::size_t>(b) * esize, n);
      std::vector<double> w(want.begin() + b, want.begin() + e);
      parts[static_cast<std::size_t>(c)] = compareOutputs(g, w, problem.tolerance);
    });
    for (std::size_t c = 0; c < parts.size(); ++c) {
      const auto& part = parts[c];
      result.mismatches += part.mismatches;
      result.max_abs_error = std::max(result.max_abs_error, part.max_abs_error);
      if (!part.ok && result.message.empty()) {
        // Report the first failing chunk with its element index shifted to the whole tensor.
        const std::int64_t base = static_cast<std::int64_t>(c) * kChunk;
        std::string m = part.message;
        const std::string from = "worst [" + std::to_string(part.worst_index) + "]";
        if (auto pos = m.find(from); pos != std::string::npos) {
          m.replace(pos, from.size(), "worst [" + std::to_string(base + part.worst_index) + "]");
        }
        result.message = name + ": " + m;
      }
    }
  }
  result.ok = result.mismatches == 0;
  if (!result.ok && result.message.empty()) result.message = std::to_string(result.mismatches) + " elements differ";
  if (!result.ok && outputs.size() > 1)
    result.message += " (" + std::to_string(result.mismatches) + " mismatches in all outputs)";
  return result;
}

}  // namespace occx
