#include "core/kernels/reference.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <sstream>

namespace occx {

float halfToFloat(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exp = (bits >> 10) & 0x1fu;
  const std::uint32_t mant = bits & 0x3ffu;
  if (exp == 0) {
    // Zero or subnormal: mant × 2^-24, exact in float.
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  std::uint32_t out = 0;
  if (exp == 0x1f) {
    out = sign | 0x7f800000u | (mant << 13);  // infinity or NaN (payload kept)
  } else {
    out = sign | ((exp + 112u) << 23) | (mant << 13);  // rebias 15 → 127
  }
  return std::bit_cast<float>(out);
}

std::uint16_t floatToHalf(float value) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(value);
  const auto sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
  const std::uint32_t abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00u);   // NaN
  if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to ≥ 65520: infinity
  if (abs < 0x38800000u) {
    // Result is subnormal (or zero) in half: value / 2^-24 rounded to nearest even integer.
    const float a = std::bit_cast<float>(abs);
    const float scaled = a * 16777216.0f;                               // exact: scaling by 2^24
    const auto m = static_cast<std::uint32_t>(std::nearbyint(scaled));  // default rounding: to nearest even
    return static_cast<std::uint16_t>(sign | m);                        // m == 0x400 is the smallest normal
  }
  // Normal: drop 13 mantissa bits with round to nearest even; a carry into the exponent is correct.
  std::uint32_t r = abs - 0x38000000u;  // rebias 127 → 15 (exponent field minus 112)
  r += 0x0fffu + ((r >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | (r >> 13));
}

float bf16ToFloat(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

std::uint16_t floatToBf16(float value) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(value);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((u >> 16) | 0x40u);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}

std::vector<double> decodeElements(DType dtype, const void* bytes, std::size_t count) {
  std::vector<double> out(count);
  const auto* p = static_cast<const unsigned char*>(bytes);
  for (std::size_t i = 0; i < count; ++i) {
    if (dtype == DType::kF32) {
      float f;
      std::memcpy(&f, p + 4 * i, 4);
      out[i] = f;
    } else {
      std::uint16_t h;
      std::memcpy(&h, p + 2 * i, 2);
      out[i] = dtype == DType::kF16 ? halfToFloat(h) : bf16ToFloat(h);
    }
  }
  return out;
}

std::vector<std::uint8_t> encodeElements(DType dtype, const std::vector<double>& values) {
  const auto size = static_cast<std::size_t>(dtypeBytes(dtype));
  std::vector<std::uint8_t> out(values.size() * size);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto f = static_cast<float>(values[i]);
    if (dtype == DType::kF32) {
      std::memcpy(out.data() + 4 * i, &f, 4);
    } else {
      const std::uint16_t h = dtype == DType::kF16 ? floatToHalf(f) : floatToBf16(f);
      std::memcpy(out.data() + 2 * i, &h, 2);
    }
  }
  return out;
}

std::vector<std::uint8_t> randomInput(DType dtype, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> values(count);
  for (auto& v : values) {
    double d = 0.0;
    // Redraw values that round to zero in the dtype (fp16/bf16 flush tiny values to 0 only below
    // their subnormal range, so this loop almost never repeats).
    do {
      d = dist(rng);
    } while (std::abs(d) < 1e-3);
    v = d;
  }
  return encodeElements(dtype, values);
}

namespace {

// The inputs referenceOutputs accepts: positive sizes, 1 … kMaxFusedInputs inputs for fused_k (k
// is 1 for the other workloads), as many input tensors as the workload takes, each of xnumel ×
// rnumel elements.
std::optional<Error> checkReferenceInputs(Workload w, int k, std::int64_t xnumel, std::int64_t rnumel,
                                          const std::vector<std::vector<double>>& inputs) {
  if (xnumel < 1) return Error{"xnumel " + std::to_string(xnumel) + " is out of range: allowed 1 or more"};
  if (rnumel < 1) return Error{"rnumel " + std::to_string(rnumel) + " is out of range: allowed 1 or more"};
  if (w == Workload::kFusedK && (k < 1 || k > kMaxFusedInputs)) {
    return Error{"K " + std::to_string(k) + " is out of range: fused_k takes 1 … " + std::to_string(kMaxFusedInputs) +
                 " inputs"};
  }
  const int nin = numInputs(w, k);
  if (static_cast<int>(inputs.size()) != nin) {
    return Error{std::string(workloadName(w)) + " takes " + std::to_string(nin) + " input tensor(s), got " +
                 std::to_string(inputs.size())};
  }
  const auto n = static_cast<std::size_t>(xnumel * rnumel);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].size() != n) {
      return Error{"input " + std::to_string(i) + " holds " + std::to_string(inputs[i].size()) +
                   " elements, expected xnumel × rnumel = " + std::to_string(n)};
    }
  }
  return std::nullopt;
}

// Row x of the workload's outputs, computed in double from row x (R elements) of the inputs.
void referenceRow(Workload w, int k, std::size_t x, std::size_t R, const std::vector<std::vector<double>>& inputs,
                  std::vector<std::vector<double>>& out) {
  const double* row = inputs[0].data() + x * R;
  switch (w) {
    case Workload::kSum: {
      double s = 0.0;
      for (std::size_t r = 0; r < R; ++r) s += row[r];
      out[0][x] = s;
      break;
    }
    case Workload::kSumSq: {
      double s = 0.0;
      for (std::size_t r = 0; r < R; ++r) s += row[r] * row[r];
      out[0][x] = s;
      break;
    }
    case Workload::kAmax: {
      double m = -std::numeric_limits<double>::infinity();
      for (std::size_t r = 0; r < R; ++r) m = std::max(m, row[r]);
      out[0][x] = m;
      break;
    }
    case Workload::kMeanVar: {
      double s = 0.0;
      for (std::size_t r = 0; r < R; ++r) s += row[r];
      const double mean = s / static_cast<double>(R);
      double m2 = 0.0;
      for (std::size_t r = 0; r < R; ++r) m2 += (row[r] - mean) * (row[r] - mean);
      out[0][x] = mean;
      out[1][x] = m2 / static_cast<double>(R);
      break;
    }
    case Workload::kLogSoftmax: {
      double m = -std::numeric_limits<double>::infinity();
      for (std::size_t r = 0; r < R; ++r) m = std::max(m, row[r]);
      double s = 0.0;
      for (std::size_t r = 0; r < R; ++r) s += std::exp(row[r] - m);
      const double shift = m + std::log(s);
      for (std::size_t r = 0; r < R; ++r) out[0][x * R + r] = row[r] - shift;
      break;
    }
    case Workload::kFusedK: {
      std::vector<double> sums(static_cast<std::size_t>(k), 0.0);
      for (std::size_t r = 0; r < R; ++r) {
        double p = 1.0;
        for (std::size_t j = 0; j < static_cast<std::size_t>(k); ++j) {
          p *= inputs[j][x * R + r];
          sums[j] += p;
        }
      }
      for (std::size_t j = 0; j < static_cast<std::size_t>(k); ++j) out[j][x] = sums[j];
      break;
    }
  }
}

}  // namespace

Expected<std::vector<std::vector<double>>> referenceOutputs(Workload w, int k, std::int64_t xnumel, std::int64_t rnumel,
                                                            const std::vector<std::vector<double>>& inputs) {
  if (w != Workload::kFusedK) k = 1;
  if (auto error = checkReferenceInputs(w, k, xnumel, rnumel, inputs)) return *error;
  const auto X = static_cast<std::size_t>(xnumel);
  const auto R = static_cast<std::size_t>(rnumel);
  const int nout = numOutputs(w, k);
  std::vector<std::vector<double>> out(
      static_cast<std::size_t>(nout), std::vector<double>(static_cast<std::size_t>(outputElements(w, xnumel, rnumel))));
  for (std::size_t x = 0; x < X; ++x) referenceRow(w, k, x, R, inputs, out);
  return out;
}

Tolerance referenceTolerance(Workload w, DType dtype, std::int64_t rnumel) {
  if (w == Workload::kAmax) return {0.0, 0.0};
  Tolerance t;
  t.rtol = dtype == DType::kF32 ? 1e-5 : dtype == DType::kF16 ? 2e-3 : 1.6e-2;
  switch (w) {
    case Workload::kMeanVar:
      t.atol = 1e-5;
      break;
    case Workload::kLogSoftmax:
      t.atol = 1e-4;
      break;
    default:
      t.atol = 1e-5 * std::sqrt(static_cast<double>(std::max<std::int64_t>(rnumel, 1)));
      break;
  }
  return t;
}

CompareResult compareOutputs(const std::vector<double>& got, const std::vector<double>& want, Tolerance tol) {
  CompareResult c;
  if (got.size() != want.size()) {
    c.ok = false;
    c.mismatches = static_cast<std::int64_t>(std::max(got.size(), want.size()));
    c.message = "sizes differ: got " + std::to_string(got.size()) + " elements, want " + std::to_string(want.size());
    return c;
  }
  double worst_excess = -1.0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double err = std::abs(got[i] - want[i]);
    const double allowed = tol.atol + tol.rtol * std::abs(want[i]);
    const bool bad = !(err <= allowed) && !(got[i] == want[i]);  // NaN fails; equal infinities pass
    if (std::isfinite(err)) c.max_abs_error = std::max(c.max_abs_error, err);
    const double excess = std::isnan(err) ? std::numeric_limits<double>::infinity() : err - allowed;
    if (bad) ++c.mismatches;
    if (excess > worst_excess || c.worst_index < 0) {
      worst_excess = excess;
      c.worst_index = static_cast<std::int64_t>(i);
    }
  }
  c.ok = c.mismatches == 0;
  if (!c.ok) {
    std::ostringstream m;
    m.precision(9);
    const auto wi = static_cast<std::size_t>(c.worst_index);
    m << c.mismatches << " of " << got.size() << " elements differ; worst [" << c.worst_index << "]: got " << got[wi]
      << ", want " << want[wi] << " (allowed |error| " << tol.atol << " + " << tol.rtol << " × |want|)";
    c.message = m.str();
  }
  return c;
}

}  // namespace occx
