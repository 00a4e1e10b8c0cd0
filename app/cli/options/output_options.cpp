#include "app/cli/options/output_options.h"

namespace occx::cli {

void OutputOptions::add(CLI::App& app, const char* json_help, const char* csv_help) {
  app.add_flag("--json", json, json_help);
  if (csv_help != nullptr) app.add_option("--csv", csv, csv_help);
}

}  // namespace occx::cli
