// One compiled config handed from a view that found it (the Inductor run view) to a view that
// explains it (the calculator, the RBLOCK-scaling view), with the device it was compiled for.
#pragma once

#include <QString>
#include <QtGlobal>

#include "core/gpu/gpu_data.h"

namespace occx::ui {

struct ConfigHandOver {
  ComputeCapability cc;  ///< the architecture the config was compiled for
  int sm_count = 0;      ///< the GPU's SMs (0 = unknown)
  QString device_label;  ///< "CC 9.0, 132 SMs"
  /// The sender's DeviceSelector key when it names that very device ("gpu:H100 SXM5"); empty when
  /// only the compute capability and SM count are known (the receiver then uses keyFor).
  QString device_key;
  int xblock = 1;
  int r0_block = 1;
  int num_warps = 4;
  int n_regs = 0;  ///< 0 = unknown
  int n_spills = 0;
  qint64 shared_bytes = 0;  ///< per block, static + dynamic
  qint64 xnumel = 1;
  qint64 rnumel = 1;
  bool persistent = false;
  QString reduction_hint;  ///< "INNER", "OUTER", …; empty when unknown
};

}  // namespace occx::ui
