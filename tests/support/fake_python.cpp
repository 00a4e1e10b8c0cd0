// A stand-in for `python3 triton_compile_configs.py REQUEST.json` in tests without PyTorch and
// Triton: it replays what the real helper reported on the GPU machine. $OCCX_FAKE_PYTHON_RECORDING
// names a folder with helper.jsonl (the real helper's standard output) and triton/<hash>/ (the
// folders it compiled). For each config asked for, the recorded line of the same config is printed
// (its folder copied into the request's cache_dir); a config not recorded fails with "not recorded".
// $OCCX_FAKE_PYTHON_MODE: "no-torch" prints the helper's error for a Python without torch; "crash"
// is killed (SIGKILL: no sanitizer's handler can turn it into an exit) after the first config.
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: fake_python HELPER.py REQUEST.json\n";
    return 2;
  }
  const char* mode_env = std::getenv("OCCX_FAKE_PYTHON_MODE");
  const std::string mode = mode_env != nullptr ? mode_env : "";
  if (mode == "no-torch") {
    std::cout << R"({"event": "error", "missing": "torch", "error": "ModuleNotFoundError: No module named 'torch'"})"
              << "\n";
    return 3;
  }
  const char* rec = std::getenv("OCCX_FAKE_PYTHON_RECORDING");
  if (rec == nullptr) {
    std::cerr << "OCCX_FAKE_PYTHON_RECORDING is not set\n";
    return 2;
  }
  std::ifstream in(argv[2]);
  const json request = json::parse(in, nullptr, false);
  if (!request.is_object()) {
    std::cerr << "bad request\n";
    return 2;
  }
  std::vector<json> recorded;
  std::ifstream lines(fs::path(rec) / "helper.jsonl");
  for (std::string line; std::getline(lines, line);) {
    json m = json::parse(line, nullptr, false);
    if (m.is_object()) recorded.push_back(std::move(m));
  }
  for (const auto& m : recorded) {
    if (m.value("event", "") == "start") std::cout << m.dump() << "\n";
  }
  const std::string cache = request.at("cache_dir").get<std::string>();
  int index = 0;
  for (const auto& c : request.at("configs")) {
    json out = {{"event", "config"}, {"index", index}, {"config", c},
                {"ok", false},       {"seconds", 0.0}, {"error", "not recorded"}};
    for (const auto& m : recorded) {
      if (m.value("event", "") != "config" || m.value("config", json()) != c) continue;
      out = m;
      out["index"] = index;
      if (m.value("ok", false)) {
        const std::string hash = m.at("triton_cache_hash").get<std::string>();
        std::error_code ec;
        fs::copy(fs::path(rec) / "triton" / hash, fs::path(cache) / hash,
                 fs::copy_options::recursive | fs::copy_options::skip_existing, ec);
        out["folder"] = (fs::path(cache) / hash).string();
      }
    }
    std::cout << out.dump() << "\n" << std::flush;
    if (mode == "crash") std::raise(SIGKILL);
    ++index;
  }
  std::cout << R"({"event": "done", "seconds": 1.0})"
            << "\n";
  return 0;
}
