// The in-app manual's command line paragraph names every command and every `occx inductor`
// subcommand the CLI has (read from `occx --help` and `occx inductor --help`), and no other.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "tests/support/cli_run.h"

namespace occx {
namespace {

using testing_support::runOccx;

// The names listed under "Subcommands:" in a --help text.
std::set<std::string> subcommandsOf(const std::string& help) {
  std::set<std::string> names;
  std::istringstream in(help.substr(help.find("Subcommands:")));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    if (line.size() < 3 || line[0] != ' ' || line[2] == ' ') continue;  // not "  name  description"
    names.insert(line.substr(2, line.find(' ', 2) - 2));
  }
  return names;
}

std::string manualCommandLine() {
  std::ifstream f(OCCX_SOURCE_DIR "/resources/help/manual.html");
  std::stringstream text;
  text << f.rdbuf();
  const std::string all = text.str();
  const auto begin = all.find("<h3>The command line");
  const auto end = all.find("<h3>", begin + 1);
  EXPECT_NE(begin, std::string::npos);
  return all.substr(begin, end - begin);
}

TEST(CliManual, TheManualNamesEveryCommandAndSubcommand) {
  const auto help = runOccx({"--help"});
  ASSERT_EQ(help.code, 0);
  const std::set<std::string> commands = subcommandsOf(help.out);
  ASSERT_GE(commands.size(), 7u);
  const std::string manual = manualCommandLine();

  // Every command as <code>NAME</code> (the inductor command with its subcommands).
  std::set<std::string> named;
  const std::regex code("<code>(?:occx )?([a-z]+)( [a-z|]+)?</code>");
  std::string inductor_subcommands;
  for (std::sregex_iterator it(manual.begin(), manual.end(), code), end; it != end; ++it) {
    named.insert((*it)[1].str());
    if ((*it)[1].str() == "inductor") inductor_subcommands = (*it)[2].str();
  }
  for (const auto& c : commands) EXPECT_TRUE(named.count(c) > 0) << "the manual does not name occx " << c;

  const auto inductor_help = runOccx({"inductor", "--help"});
  ASSERT_EQ(inductor_help.code, 0);
  const std::set<std::string> subcommands = subcommandsOf(inductor_help.out);
  ASSERT_GE(subcommands.size(), 5u);
  std::set<std::string> listed;
  std::istringstream parts(inductor_subcommands.empty() ? std::string() : inductor_subcommands.substr(1));
  for (std::string s; std::getline(parts, s, '|');) listed.insert(s);
  EXPECT_EQ(listed, subcommands) << "the manual lists 'inductor" << inductor_subcommands << "'";
}

}  // namespace
}  // namespace occx
