// The window's tabs by their titles: the one list the window, main(), the manual and the README name
// them by (a title is also the tab remembered in the settings and what `--tab` selects).
#pragma once

#include <array>

namespace occx::ui {

inline constexpr const char* kCalculatorTitle = "Occupancy calculator";
inline constexpr const char* kRblockScalingTitle = "RBLOCK scaling";
inline constexpr const char* kInductorRunTitle = "Inductor run";
inline constexpr const char* kCompileSweepTitle = "Compile sweep (NVRTC)";
inline constexpr const char* kLiveSweepTitle = "Live sweep";
inline constexpr const char* kGpuDataTitle = "GPU data";

/// Every tab of the window, in the order of the tabs.
inline constexpr std::array<const char*, 6> kViewTitles = {kCalculatorTitle,   kRblockScalingTitle, kInductorRunTitle,
                                                           kCompileSweepTitle, kLiveSweepTitle,     kGpuDataTitle};

}  // namespace occx::ui
