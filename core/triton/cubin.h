// What a cubin (the CUDA ELF that Triton and NVRTC write) says about each kernel without a GPU:
// registers per thread, the per-thread stack frame (local memory, where spilled registers go),
// static shared memory and the architecture it was built for.
//
// Source: the ELF64 format (section headers, symbol table) and NVIDIA's .nv.info attribute records,
// as CuAssembler's CuNVInfo.py documents them: records "u8 format, u8 attribute" with format 1 (no
// value, 2 pad bytes), 2 (u8 value + pad), 3 (u16 value), 4 (u16 size, then that many bytes);
// per-function records in the global .nv.info are "u32 symbol index, u32 value". REGCOUNT 0x2f,
// FRAME_SIZE 0x11, MIN_STACK_SIZE 0x12, MAX_STACK_SIZE 0x23, PARAM_CBANK 0x0a, CBANK_PARAM_SIZE
// 0x19, MAX_THREADS 0x05, REQNTID 0x10. Checked against the CUDA driver's cuFuncGetAttribute on
// every cubin of tests/data/inductor (recorded on an H200): NUM_REGS = REGCOUNT, LOCAL_SIZE_BYTES =
// FRAME_SIZE, SHARED_SIZE_BYTES = the .nv.shared.<kernel> section less the 1 KiB system
// reservation that cubins with a .nv.shared.reserved section include in it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"

namespace occx::triton {

/// One kernel (a global function) of a cubin.
struct CubinKernel {
  std::string name;
  int registers = -1;                    ///< REGCOUNT: registers per thread; -1 when the cubin has no record
  std::int64_t frame_bytes = 0;          ///< FRAME_SIZE: local memory per thread, bytes (spills live here)
  std::int64_t min_stack_bytes = 0;      ///< MIN_STACK_SIZE, bytes per thread
  std::int64_t max_stack_bytes = 0;      ///< MAX_STACK_SIZE, bytes per thread (calls), 0 when absent
  std::int64_t static_shared_bytes = 0;  ///< user static shared memory per block, bytes
  int param_bytes = -1;                  ///< CBANK_PARAM_SIZE: bytes of kernel parameters; -1 when absent
  int param_count = 0;                   ///< KPARAM_INFO records (one per parameter)
  int required_threads = 0;              ///< REQNTID x·y·z (or MAX_THREADS), 0 when absent

  /// Local memory per thread as the driver reports it (LOCAL_SIZE_BYTES): the frame size.
  [[nodiscard]] std::int64_t localBytes() const { return frame_bytes; }
  /// Triton's n_spills: LOCAL_SIZE_BYTES / 4 (third_party/nvidia/backend/driver.c).
  [[nodiscard]] int tritonSpills() const { return static_cast<int>(frame_bytes / 4); }
};

/// The kernels of one cubin and its target.
struct CubinInfo {
  int sm_arch = 0;  ///< from e_flags, e.g. 90 for sm_90 / sm_90a
  std::vector<CubinKernel> kernels;
  /// The kernel named `name`; nullptr when absent.
  [[nodiscard]] const CubinKernel* find(std::string_view name) const;
};

/// Reads a cubin held in memory. Errors (never throws, never reads out of bounds): not an ELF64
/// little-endian file, a header or section outside the file ("section 12 '.nv.info' runs past the
/// end of the file: offset 4096 + size 800 > 4500 bytes"), a section or symbol name that does not
/// end within its name table or within 4096 bytes, a truncated .nv.info record, no kernel.
/// Names are read in place (no copy per section or symbol), so memory stays a small multiple of
/// the kernels found whatever the sections share. `origin` names the file in messages.
Expected<CubinInfo> readCubin(std::span<const unsigned char> bytes, std::string_view origin = "cubin");

}  // namespace occx::triton
