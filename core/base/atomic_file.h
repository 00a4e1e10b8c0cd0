// Atomic file writes: a file is either the old one or the complete new one, never half-written.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"

namespace occx {

/// Writes `content` to `path` atomically: into a temporary file in the same folder, flushed to disk
/// (fsync), then renamed over `path`. On any failure (folder missing or unwritable, `path` is a
/// folder, disk full) the previous file is left untouched, the temporary is removed, and the Error
/// names the path and the reason (strerror). Returns the number of bytes written.
Expected<std::size_t> writeFileAtomically(const std::string& path, std::string_view content);

/// The entries directly in `folder` (files and folders, unsorted), never throwing: an unreadable or
/// missing folder gives what was listed before the error (nothing) and sets `error` to the reason.
std::vector<std::string> listFolder(const std::string& folder, std::string* error = nullptr);

/// Reads a whole file. Error names the path and the reason. `max_bytes` guards against reading
/// huge files by mistake (error names the size and the limit); reading stops after max_bytes + 1
/// bytes, so a device without end (/dev/zero) is refused too. A FIFO or a socket is refused without
/// waiting ("cannot read 'p': not a regular file (a FIFO)"): it is opened non-blocking and checked
/// with fstat before any read, so a FIFO left in a scanned folder cannot hang the reader.
Expected<std::string> readFile(const std::string& path, std::size_t max_bytes = std::size_t{512} << 20);

}  // namespace occx
