// occx: the command-line tool. Wiring only; the commands live in app/cli/.
#include <iostream>

#include "app/cli/cli.h"

int main(int argc, char** argv) {
  return occx::cli::runCli(argc, argv, std::cout, std::cerr);
}
