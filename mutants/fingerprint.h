#pragma once
// What a mutation run measured, so that neither the run nor `clauses` trusts a program or a
// report the sources have moved past.

#include <filesystem>
#include <optional>
#include <string>

namespace gemini_oracle::mutants {

/// A 64-bit FNV-1a digest (16 hex digits) of the relative paths and contents of every file
/// under <source_root>/reference_impl/ and <source_root>/oracles/, every file under
/// `fixtures`, and the `catalogue` file, in path order. It detects change, not tampering.
std::string SourceFingerprint(const std::filesystem::path& source_root,
                              const std::filesystem::path& fixtures,
                              const std::filesystem::path& catalogue);

/// Why this program cannot stand for the sources under `source_root`, or nullopt: a fault
/// point it registered is no longer at its file and line, or a source file compiled into it
/// (reference_impl/, oracles/, mutants/, reports/, apps/) is newer than the program.
std::optional<std::string> StaleProgram(const std::filesystem::path& source_root);

}  // namespace gemini_oracle::mutants
