#include "app/cli/options/output_options.h"

namespace occx::cli {

void OutputOptions::add(CLI::App& app, const char* json_help, const char* csv_help) {
  app.add_flag("--json", json, json_help);
  if (csv_help == nullptr) return;
  app.add_option("--csv", csv, std::string(csv_help) + kCsvStdoutHelp);
  // Checked once every option is read, whatever their order on the command line.
  app.parse_complete_callback([this] {
    if (json && csvToStdout()) {
      throw CLI::ValidationError(
          "--csv", "'-' writes the CSV to standard output, where --json writes too: give one of them, or --csv FILE");
    }
  });
}

}  // namespace occx::cli
