#include "reports/atomic_file.h"

#include <fstream>
#include <stdexcept>
#include <system_error>

namespace gemini_oracle::reports {

namespace fs = std::filesystem;

// The same rule as WriteAll's: the temporary lives in the target's folder, so the rename
// never crosses a file system and replaces the file in one step.
void WriteFileAtomically(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  const fs::path temporary = path.parent_path() / ("." + path.filename().string() + ".partial");
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path.generic_string() + ": cannot write the file");
    write(out);
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw std::runtime_error(path.generic_string() + ": write failed");
    }
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) {
    fs::remove(temporary, error);
    throw std::runtime_error(path.generic_string() + ": cannot replace the file");
  }
}

}  // namespace gemini_oracle::reports
