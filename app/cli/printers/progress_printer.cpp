#include "app/cli/printers/progress_printer.h"

#include <unistd.h>

#include <iostream>

namespace occx::cli {

namespace {
constexpr const char* kClearLine = "\r\033[K";
}  // namespace

ProgressPrinter::ProgressPrinter(std::ostream& err, bool quiet)
    : err_(err), quiet_(quiet), tty_(&err == &std::cerr && isatty(STDERR_FILENO) == 1) {}

void ProgressPrinter::step(const std::string& line) {
  if (quiet_) return;
  if (tty_) {
    err_ << kClearLine << line << std::flush;
  } else {
    err_ << line << "\n";
  }
}

void ProgressPrinter::keep(const std::string& line) {
  if (quiet_) return;
  if (tty_) err_ << kClearLine;
  err_ << line << "\n";
}

void ProgressPrinter::finish() {
  if (tty_ && !quiet_) err_ << "\n";
}

}  // namespace occx::cli
