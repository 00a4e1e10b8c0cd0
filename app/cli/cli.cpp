#include "app/cli/cli.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "app/cli/printers/format.h"
#include "core/base/text.h"
#include "core/gpu/device.h"
#include "occx_config.h"

namespace occx::cli {

namespace {
std::vector<CommandSpec>& registry() {
  static std::vector<CommandSpec> specs;
  return specs;
}
// CLI11 2.1 reads integers with strtoll (base 0: decimal, 0x hex, 0 octal) and turns text beyond the
// int64 range into INT64_MAX or INT64_MIN without a word, so the range checks after parsing would
// name a value the user never typed. runCli puts this check on every integer option: such text is
// refused, as typed.
const CLI::Validator& int64Text() {
  static const CLI::Validator check(
      [](std::string& text) -> std::string {
        errno = 0;
        char* end = nullptr;
        const long long v = std::strtoll(text.c_str(), &end, 0);
        if (errno == ERANGE && end != text.c_str() && *end == '\0') {
          return text + " is out of range: beyond " + std::to_string(v) +
                 ", the 64-bit integer limit (the option's own range is below)";
        }
        return {};  // anything else (not a number, beyond a narrower type) is CLI11's to refuse
      },
      "INT64");
  return check;
}
std::vector<CommandSpec> sortedCommands() {
  auto specs = registry();
  std::stable_sort(specs.begin(), specs.end(),
                   [](const CommandSpec& a, const CommandSpec& b) { return a.order < b.order; });
  return specs;
}

// Every registered command, with the 64-bit text check on each of its integer options.
void addCommands(CLI::App& app, Context& ctx, const std::vector<CommandSpec>& specs) {
  for (const auto& s : specs) s.add(app, ctx);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    for (CLI::Option* opt : sub->get_options([](CLI::Option*) { return true; })) {
      if (opt->get_type_name() == "INT") opt->check(int64Text());
    }
  }
}

// Whether the error text names `option` as a whole word (not as the start of a longer option).
bool namesOption(const std::string& what, const std::string& option) {
  for (auto p = what.find(option); p != std::string::npos; p = what.find(option, p + 1)) {
    const char next = p + option.size() < what.size() ? what[p + option.size()] : ' ';
    if (!std::isalnum(static_cast<unsigned char>(next)) && next != '-' && next != '_') return true;
  }
  return false;
}

// The name of `names` closest to `word` by edit distance (the first of equals), when it is close
// enough to be what a typo meant: at most half the shorter word's letters differ.
std::optional<std::string> closestName(const std::string& word, const std::vector<std::string>& names) {
  std::optional<std::string> best;
  int best_distance = 0;
  for (const auto& name : names) {
    const int d = editDistance(word, name);
    const int allowed = std::max<int>(1, static_cast<int>(std::min(word.size(), name.size()) / 2));
    if (d <= allowed && (!best || d < best_distance)) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

// "'WORD' is not a KIND: did you mean NAME? (allowed A, B)", or "…: allowed A, B" when no name is close.
std::string notAName(const std::string& word, const char* kind, const std::vector<std::string>& names) {
  const std::string allowed = joined(names, ", ");
  const auto close = closestName(word, names);
  if (!close) return "'" + word + "' is not " + kind + ": allowed " + allowed;
  return "'" + word + "' is not " + kind + ": did you mean " + *close + "? (allowed " + allowed + ")";
}

// The word after `command` on the command line, when it is not an option: what the user typed
// where a subcommand of `command` belongs.
std::optional<std::string> wordAfter(const std::string& command, int argc, const char* const* argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == command) return argv[i + 1][0] == '-' ? std::nullopt : std::optional<std::string>(argv[i + 1]);
  }
  return std::nullopt;
}

// After a parse error, says what is allowed: the commands (and the closest one to a misspelt
// command), a command's subcommands (likewise), or the help line (with its range) of each option
// the error names. Returns whether it named a word that is not a command or subcommand (then that
// line says all, and CLI11's "A subcommand is required" is left out).
bool explainParseError(std::ostream& err, CLI::App& app, const std::string& what, const std::vector<CommandSpec>& specs,
                       int argc, const char* const* argv) {
  bool named = false;
  for (const auto* sub : app.get_subcommands()) {
    for (const CLI::Option* opt : sub->get_options()) {
      if (!opt->get_description().empty() && namesOption(what, opt->get_name())) {
        err << "  " << opt->get_name() << ": " << opt->get_description() << "\n";
      }
    }
    std::vector<std::string> subcommands;
    for (const auto* s : sub->get_subcommands([](const CLI::App*) { return true; }))
      subcommands.push_back(s->get_name());
    if (!subcommands.empty() && sub->get_subcommands().empty()) {
      if (auto word = wordAfter(sub->get_name(), argc, argv)) {
        err << "occx " << sub->get_name() << ": " << notAName(*word, "a subcommand", subcommands) << "\n";
        named = true;
      }
    }
    err << "Run 'occx " << sub->get_name() << " --help' for the options.\n";
  }
  if (app.get_subcommands().empty()) {
    std::vector<std::string> commands;
    for (const auto& s : specs) commands.emplace_back(s.name);
    if (argc > 1 && argv[1][0] != '-') {
      err << "occx: " << notAName(argv[1], "a command", commands) << "\n";
      named = true;
    } else {
      err << "occx: commands: " << joined(commands, ", ") << "\n";
    }
    err << "Run 'occx --help' for the commands.\n";
  }
  return named;
}
}  // namespace

CommandRegistrar::CommandRegistrar(CommandSpec spec) {
  registry().push_back(spec);
}

std::string defaultGpuName(const Backend& backend) {
  for (const auto& gpu : backend.detectedGpus()) {
    if (!gpu.matched_gpu.empty()) return gpu.matched_gpu;
  }
  return "H100-SXM";
}

std::string reasonClause(std::string reason) {
  if (!reason.empty() && reason.back() == '.') reason.pop_back();
  if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
  return reason;
}

OpenedGpu openGpu(Context& ctx, std::string_view cmd, int device) {
  OpenedGpu opened;
  if (const Availability live = ctx.backend.liveAvailability(); !live.available) {
    opened.no_gpu = "no GPU to run on (" + reasonClause(live.reason) + ")";
    return opened;
  }
  const auto count = static_cast<int>(ctx.backend.detectedGpus().size());
  if (count == 0) {
    opened.no_gpu = "no GPU to run on (the driver reports no device)";
    return opened;
  }
  if (device < 0 || device >= count) {
    opened.exit_code = fail(ctx, cmd, outOfRange("--device", device, "0 … " + std::to_string(count - 1)));
    return opened;
  }
  auto runner = ctx.backend.startGpuRunner(device);
  if (!runner) {
    opened.exit_code =
        fail(ctx, cmd, "cannot open device " + std::to_string(device) + ": " + runner.error(), kExitRuntime);
    return opened;
  }
  opened.runner = std::move(runner).value();
  return opened;
}

int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err, Backend& backend) {
  try {
    CLI::App app{
        "occx — occupancy, Inductor RBLOCK scaling, NVRTC register counts and live GPU "
        "sweeps for reduction kernels"};
    app.name("occx");
    app.set_version_flag("--version", std::string(OCCX_VERSION));
    app.require_subcommand(1);
    Context ctx{out, err, backend, {}};
    const auto specs = sortedCommands();
    addCommands(app, ctx, specs);
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      out << app.help();
      return kExitOk;
    } catch (const CLI::CallForAllHelp& e) {
      out << app.help("", CLI::AppFormatMode::All);
      return kExitOk;
    } catch (const CLI::CallForVersion& e) {
      out << OCCX_VERSION << "\n";
      return kExitOk;
    } catch (const CLI::ParseError& e) {
      if (e.get_exit_code() == 0) {
        out << e.what() << "\n";
        return kExitOk;
      }
      std::ostringstream why;
      // A misspelt command is said once, with the closest name, not first as "A subcommand is required".
      if (!explainParseError(why, app, e.what(), specs, argc, argv)) err << "occx: " << e.what() << "\n";
      err << why.str();
      return kExitUsage;
    }
    if (!ctx.action) {
      err << "occx: no command given; run 'occx --help'\n";
      return kExitUsage;
    }
    return ctx.action();
  } catch (const std::exception& e) {
    err << "occx: internal error: " << e.what() << "\n";
    return kExitRuntime;
  }
}

int fail(Context& ctx, std::string_view cmd, std::string_view message, int code) {
  ctx.err << cmd << ": " << message << "\n";
  return code;
}

std::string outOfRange(std::string_view option, long long value, std::string_view allowed) {
  return std::string(option) + " " + std::to_string(value) + " is out of range: allowed " + std::string(allowed);
}

Expected<Target> resolveTarget(const TargetOptions& o, const std::string& default_gpu) {
  Target t;
  if (!o.gpu_data_file.empty()) {
    auto db = GpuDatabase::load(o.gpu_data_file);
    if (!db) return Error{"--gpu-data: " + db.error()};
    t.db = std::move(db).value();
  } else {
    t.db = GpuDatabase::builtin();
  }
  if (!o.gpu.empty() && !o.cc.empty()) return Error{"--gpu and --cc are exclusive: give one of them"};
  if (o.sm_count < 0 || o.sm_count > 1024) {
    return Error{"--sms " + std::to_string(o.sm_count) + " is out of range: allowed 1 … 1024"};
  }
  if (!o.cc.empty()) {
    auto cc = ComputeCapability::parse(o.cc);
    if (!cc) return Error{"--cc: " + cc.error()};
    const ArchLimits* a = t.db.findArch(*cc);
    if (!a) return Error{"--cc " + o.cc + " is not in the GPU data: known compute capabilities are " + t.db.ccList()};
    t.arch = *a;
    t.sm_count = o.sm_count;
    t.label = "CC " + a->cc.str() + " (" + a->family + ")";
  } else {
    std::string name = o.gpu.empty() ? default_gpu : o.gpu;
    const GpuSpec* g = t.db.findGpu(name);
    if (!g) {
      return Error{"--gpu '" + name + "' is not a known GPU" + closestGpuNamesClause(t.db, name) +
                   " (all: 'occx gpus'; or use --cc X.Y)"};
    }
    auto device = deviceForGpu(t.db, *g, o.sm_count);
    if (!device) return Error{"--gpu: " + device.error()};
    t.gpu = *g;
    t.arch = device->arch;
    t.sm_count = device->sm_count;
    t.label = device->label;
  }
  return t;
}

}  // namespace occx::cli
