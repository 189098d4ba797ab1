#pragma once
// Named faults for the mutation harness (mutants/catalogue.json): each fault point is a
// plausible mistake an adapter author makes, guarded by GEMINI_FAULT("id"). In the default
// build a fault point is the constant `false` and compiles to nothing; the `mutants` preset
// (GEMINI_ORACLE_MUTANTS) compiles them in, and one fault is chosen at run time.

#include <string>
#include <string_view>

namespace gemini_oracle::ref::fault {

#ifdef GEMINI_ORACLE_MUTANTS
inline constexpr bool kCompiledIn = true;
/// Whether `id` is the active fault.
bool Active(std::string_view id);
#else
inline constexpr bool kCompiledIn = false;
constexpr bool Active(std::string_view) { return false; }
#endif

/// Chooses the active fault of the process ("" for none). Call it between runs, never while
/// a run is going. The environment variable GEMINI_ORACLE_FAULT sets the initial choice.
void SetActive(std::string id);
/// The active fault ("" for none).
std::string ActiveId();

}  // namespace gemini_oracle::ref::fault

#define GEMINI_FAULT(id) (::gemini_oracle::ref::fault::Active(id))
