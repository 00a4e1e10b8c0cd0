// The recorded Inductor runs of tests/data/inductor, unpacked into the build tree, for core tests:
// a fixture's path and its scan (Triton's home cache left out).
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "core/triton/inductor_run.h"

namespace occx::testing_support {

/// <build>/test-data/inductor: the folder the recorded runs are unpacked into.
inline const std::filesystem::path kFixtures{OCCX_INDUCTOR_FIXTURES_DIR};

/// <build>/test-data/inductor/<name>.
inline std::string inductorFixture(const std::string& name) {
  return std::string(OCCX_INDUCTOR_FIXTURES_DIR) + "/" + name;
}

/// The scan of `path` (a failure is a test failure and an empty run).
inline triton::InductorRun scanFixturePath(const std::string& path) {
  triton::RunScanOptions o;
  o.input = path;
  o.home_triton_cache = false;
  auto run = triton::scanInductorRun(o);
  EXPECT_TRUE(run.hasValue()) << path << ": " << run.error();
  return run.hasValue() ? run.value() : triton::InductorRun{};
}

}  // namespace occx::testing_support
