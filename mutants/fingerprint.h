#pragma once
// What a mutation report was measured on, so `clauses` never shows proofs from a report the
// sources have since moved past.

#include <filesystem>
#include <string>

namespace gemini_oracle::mutants {

/// A 64-bit FNV-1a digest (16 hex digits) of the relative paths and contents of every file
/// under reference_impl/, oracles/ and fixtures/, and of mutants/catalogue.json, in path
/// order. It detects change, not tampering.
std::string SourceFingerprint(const std::filesystem::path& source_root);

}  // namespace gemini_oracle::mutants
