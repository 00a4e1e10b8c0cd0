// occx: the command-line tool. Wiring only; the commands live in app/cli/.
#include <iostream>

#include "app/backend/build_backend.h"
#include "app/cli/cli.h"

int main(int argc, char** argv) {
  // The GPU backend of this build (CUDA or offline), kept until the commands are done.
  const auto backend = occx::app::buildBackend();
  return occx::cli::runCli(argc, argv, std::cout, std::cerr, *backend);
}
