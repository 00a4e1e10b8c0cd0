#include "app/cli/cli.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "core/base/atomic_file.h"
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
          return text + " is out of range: beyond " + std::to_string(v) + ", the 64-bit integer limit (the option's own range is below)";
        }
        return {};  // anything else (not a number, beyond a narrower type) is CLI11's to refuse
      },
      "INT64");
  return check;
}
std::function<std::optional<std::string>()>& gpuProvider() {
  static std::function<std::optional<std::string>()> p;
  return p;
}
}  // namespace

CommandRegistrar::CommandRegistrar(CommandSpec spec) { registry().push_back(spec); }

void setDefaultGpuNameProvider(std::function<std::optional<std::string>()> provider) {
  gpuProvider() = std::move(provider);
}

std::string defaultGpuName() {
  if (gpuProvider()) {
    if (auto name = gpuProvider()()) return *name;
  }
  return "H100-SXM";
}

int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  try {
    CLI::App app{"occx — occupancy, Inductor RBLOCK scaling, NVRTC register counts and live GPU "
                 "sweeps for reduction kernels"};
    app.name("occx");
    app.set_version_flag("--version", std::string(OCCX_VERSION));
    app.require_subcommand(1);
    Context ctx{out, err, {}};
    auto specs = registry();
    std::sort(specs.begin(), specs.end(), [](const CommandSpec& a, const CommandSpec& b) { return a.order < b.order; });
    for (const auto& s : specs) s.add(app, ctx);
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      for (CLI::Option* opt : sub->get_options([](CLI::Option*) { return true; })) {
        if (opt->get_type_name() == "INT") opt->check(int64Text());
      }
    }
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
      err << "occx: " << e.what() << "\n";
      // Say what is allowed: the commands, or the help line (with its range) of each option named.
      const std::string what = e.what();
      auto names = [&what](const std::string& option) {
        for (auto p = what.find(option); p != std::string::npos; p = what.find(option, p + 1)) {
          const char next = p + option.size() < what.size() ? what[p + option.size()] : ' ';
          if (!std::isalnum(static_cast<unsigned char>(next)) && next != '-' && next != '_') return true;
        }
        return false;
      };
      for (const auto* sub : app.get_subcommands()) {
        for (const CLI::Option* opt : sub->get_options()) {
          if (!opt->get_description().empty() && names(opt->get_name())) {
            err << "  " << opt->get_name() << ": " << opt->get_description() << "\n";
          }
        }
        err << "Run 'occx " << sub->get_name() << " --help' for the options.\n";
      }
      if (app.get_subcommands().empty()) {
        std::string commands;
        for (const auto& s : specs) commands += (commands.empty() ? "" : ", ") + std::string(s.name);
        if (argc > 1 && argv[1][0] != '-') err << "occx: '" << argv[1] << "' is not a command: allowed " << commands << "\n";
        else err << "occx: commands: " << commands << "\n";
        err << "Run 'occx --help' for the commands.\n";
      }
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
  app.add_option("--gpu-data", gpu_data_file, "read GPU data from this JSON file instead of the built-in data")
      ->check(non_empty("the path of a GPU data JSON file"));
  if (with_sms) app.add_option("--sms", sm_count, "override the SM count (1 … 1024)");
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

void printTable(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  auto utf8Len = [](const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
  };
  for (const auto& r : rows) {
    if (width.size() < r.size()) width.resize(r.size(), 0);
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], utf8Len(r[i]));
  }
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto& r = rows[k];
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line += std::string(width[i] - utf8Len(r[i]) + 2, ' ');
    }
    out << line << "\n";
    if (k == 0 && rows.size() > 1) {
      std::string rule;
      for (std::size_t i = 0; i < width.size(); ++i) rule += std::string(width[i], '-') + (i + 1 < width.size() ? "  " : "");
      out << rule << "\n";
    }
  }
}

int writeCsv(Context& ctx, const std::string& path, const CsvTable& table) {
  auto w = writeFileAtomically(path, toCsv(table));
  if (!w) {
    ctx.err << "occx: " << w.error() << "\n";
    return kExitRuntime;
  }
  ctx.err << "wrote " << path << " (" << table.rows.size() << " rows)\n";
  return kExitOk;
}

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

}  // namespace occx::cli
