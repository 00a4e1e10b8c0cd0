#include "app/cli/options/target_options.h"

namespace occx::cli {

namespace {
constexpr const char* kGpuDataHelp = "read GPU data from this JSON file instead of the built-in data";
}  // namespace

void TargetOptions::add(CLI::App& app, bool with_sms) {
  // An empty name must not fall back to the default GPU as if the option were not given.
  auto non_empty = [](const char* allowed) {
    return CLI::Validator(
        [allowed](std::string& text) -> std::string {
          return text.empty() ? std::string("the value is empty: allowed ") + allowed : std::string();
        },
        "NONEMPTY");
  };
  app.add_option("--gpu", gpu, "GPU by name or alias (see 'occx gpus'), e.g. H100-SXM, A100, H200")
      ->check(non_empty("a GPU name or alias (see 'occx gpus')"));
  app.add_option("--cc", cc, "compute capability instead of a named GPU, e.g. 9.0 or sm_90")
      ->check(non_empty("a compute capability such as 9.0 or sm_90"));
  app.add_option("--gpu-data", gpu_data_file, kGpuDataHelp)->check(non_empty("the path of a GPU data JSON file"));
  if (with_sms) app.add_option("--sms", sm_count, "override the SM count (1 … 1024)");
}

void TargetOptions::addGpuData(CLI::App& app) {
  app.add_option("--gpu-data", gpu_data_file, kGpuDataHelp);
}

}  // namespace occx::cli
