// The progress of long work (compile sweeps, live runs), written to the error stream: on a
// terminal one line rewritten in place, otherwise one plain line per step, so logs stay readable.
#pragma once

#include <iosfwd>
#include <string>

namespace occx::cli {

class ProgressPrinter {
 public:
  /// Prints to `err`, as a terminal when `err` is std::cerr and standard error is a tty; `quiet`:
  /// prints nothing.
  ProgressPrinter(std::ostream& err, bool quiet);

  /// A step that the next line replaces on a terminal ("\r\033[K" LINE, no newline); elsewhere a
  /// line of its own.
  void step(const std::string& line);
  /// A line that stays: on a terminal it replaces the step shown and ends with a newline.
  void keep(const std::string& line);
  /// On a terminal, ends the line of the last step, so what follows starts on a line of its own.
  void finish();

 private:
  std::ostream& err_;
  bool quiet_;
  bool tty_;
};

}  // namespace occx::cli
