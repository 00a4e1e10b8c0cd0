#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/gpu/gpu_data.h"

using namespace occx;

TEST(GpuData, BuiltinParsesAndHasEveryComputeCapability) {
  const auto& db = GpuDatabase::builtin();
  EXPECT_EQ(db.ccList(),
            "5.0, 5.2, 5.3, 6.0, 6.1, 6.2, 7.0, 7.2, 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, 10.3, 11.0, 12.0, 12.1");
  for (const char* name : {"T4", "V100", "A100-SXM-40GB", "A100-SXM-80GB", "A10", "L4", "L40S", "RTX-3090", "RTX-4090",
                           "H100-SXM", "H100-PCIe", "H200", "GH200", "B200", "RTX-5090"}) {
    EXPECT_NE(db.findGpu(name), nullptr) << name;
  }
  const GpuSpec* h200 = db.findGpu("h200");
  ASSERT_NE(h200, nullptr);
  EXPECT_EQ(h200->sm_count, 132);
  EXPECT_EQ(h200->cc, (ComputeCapability{9, 0}));
  const ArchLimits* hopper = db.findArch({9, 0});
  ASSERT_NE(hopper, nullptr);
  EXPECT_EQ(hopper->shared_memory_per_sm, 233472);
  EXPECT_EQ(hopper->shared_memory_per_block_optin, 232448);
  EXPECT_EQ(hopper->reserved_shared_memory_per_block, 1024);
  EXPECT_EQ(hopper->max_blocks_per_sm, 32);
  EXPECT_EQ(hopper->sources.at("max_warps_per_sm"), "PG; HDR maxThreadsPerMultiprocessor/warpSize");
}

// The forms --cc, --arch and the GPU data's "cc" fields accept.
TEST(ComputeCapabilityParse, AcceptsEveryDocumentedForm) {
  const std::vector<std::pair<const char*, ComputeCapability>> cases = {
      {"9.0", {9, 0}},   {"8.6", {8, 6}},     {"10.0", {10, 0}},   {"12.1", {12, 1}},      {"9", {9, 0}},
      {"90", {9, 0}},    {"86", {8, 6}},      {"100", {10, 0}},    {"121", {12, 1}},       {"sm_90", {9, 0}},
      {"sm_86", {8, 6}}, {"sm_100", {10, 0}}, {"sm_120", {12, 0}}, {"compute_90", {9, 0}}, {"compute_103", {10, 3}}};
  for (const auto& [text, want] : cases) {
    auto cc = ComputeCapability::parse(text);
    ASSERT_TRUE(cc) << text << ": " << cc.error();
    EXPECT_EQ(*cc, want) << text;
  }
}

TEST(ComputeCapabilityParse, RefusesMalformedTextListingTheForms) {
  for (const char* text : {"sm_9", "9.", ".0", "9.0.1", "sm_", "compute_", "sm_9.0", "9.10", "1000", "sm_1000", "90x",
                           "sm90", "SM_90", " 9.0", "9.0 ", "-9", "abc", ""}) {
    auto cc = ComputeCapability::parse(text);
    ASSERT_FALSE(cc) << "'" << text << "' was read as " << cc->str();
    EXPECT_NE(cc.error().find("'" + std::string(text) + "'"), std::string::npos) << cc.error();
    EXPECT_NE(cc.error().find("MAJOR.MINOR (9.0), MAJOR (9, for 9.0), MAJORMINOR (90), sm_MAJORMINOR (sm_90)"),
              std::string::npos)
        << cc.error();
  }
}

// sm_100a used to be read as sm_100 without a word: the architecture-specific ('a') and
// family-specific ('f') targets are refused by name, with the portable target to give instead.
TEST(ComputeCapabilityParse, RefusesArchitectureSpecificTargetsByName) {
  for (const auto& [text, portable] : std::vector<std::pair<const char*, const char*>>{{"sm_100a", "sm_100"},
                                                                                       {"sm_90a", "sm_90"},
                                                                                       {"compute_90a", "sm_90"},
                                                                                       {"90a", "sm_90"},
                                                                                       {"sm_100f", "sm_100"}}) {
    auto cc = ComputeCapability::parse(text);
    ASSERT_FALSE(cc) << text << " was read as " << cc->str();
    EXPECT_NE(cc.error().find("'" + std::string(text) + "' is a"), std::string::npos) << cc.error();
    EXPECT_NE(cc.error().find("-specific target (suffix '"), std::string::npos) << cc.error();
    EXPECT_NE(cc.error().find(std::string("give ") + portable + " "), std::string::npos) << cc.error();
    EXPECT_NE(cc.error().find("MAJOR.MINOR (9.0)"), std::string::npos) << cc.error();
  }
}
