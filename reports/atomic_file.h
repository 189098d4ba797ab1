#pragma once
// Writing one report file so that a reader sees the old file or the whole new one.

#include <filesystem>
#include <functional>
#include <iosfwd>

namespace gemini_oracle::reports {

/// Writes through `write` into a temporary file beside `path`, then renames it over `path`.
/// Throws std::runtime_error naming `path` when either step fails (the temporary is removed).
void WriteFileAtomically(const std::filesystem::path& path,
                         const std::function<void(std::ostream&)>& write);

}  // namespace gemini_oracle::reports
