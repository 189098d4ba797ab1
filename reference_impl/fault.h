#pragma once
// Named faults for the mutation harness (mutants/catalogue.json): each fault point is a
// plausible mistake an adapter author makes, guarded by GEMINI_FAULT("id"). In the default
// build a fault point is the constant `false` and compiles to nothing; the `mutants` preset
// (GEMINI_ORACLE_MUTANTS) compiles them in, each point registering its id, file and line
// before main(), and one fault is chosen at run time.

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gemini_oracle::ref::fault {

/// One compiled-in fault point. `file` is relative to the source root (the build maps the
/// root away), e.g. "reference_impl/request_builder.cc".
struct Point {
  std::string id;
  std::string file;
  int line = 0;
};

/// Thrown when a fault is chosen that this build has no point for: a run under an unknown
/// id would silently be a baseline run.
class UnknownFault : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

#ifdef GEMINI_ORACLE_MUTANTS
inline constexpr bool kCompiledIn = true;
/// Whether `id` is the active fault.
bool Active(std::string_view id);

namespace detail {
bool Register(const char* id, const char* file, int line);

template <std::size_t N>
struct Literal {
  constexpr Literal(const char (&text)[N]) { std::copy_n(text, N, chars); }  // NOLINT: implicit
  char chars[N];
};

// One instantiation per fault point: its static member registers the point before main(),
// whether or not the line ever runs, so the harness knows every point of the build.
template <Literal Id, Literal File, int Line>
struct Site {
  static inline const bool registered = Register(Id.chars, File.chars, Line);
};

inline bool Hit(bool /*registered*/, std::string_view id) { return Active(id); }
}  // namespace detail
#else
inline constexpr bool kCompiledIn = false;
constexpr bool Active(std::string_view) { return false; }
#endif

/// The fault points compiled into this build, sorted by id (empty in the default build).
std::vector<Point> Points();

/// The point of `id`, or nullptr when this build has none.
const Point* Find(std::string_view id);

/// Chooses the active fault of the process ("" for none). Throws UnknownFault for an id
/// with no point in this build (any nonempty id in the default build). Call it between
/// runs, never while a run is going.
void SetActive(const std::string& id);

/// Chooses the fault named by the environment variable GEMINI_ORACLE_FAULT, when it is set
/// and nonempty (throws UnknownFault as SetActive does). Only the command line honours it.
void SetActiveFromEnvironment();

/// The active fault ("" for none).
std::string ActiveId();

}  // namespace gemini_oracle::ref::fault

#ifdef GEMINI_ORACLE_MUTANTS
#define GEMINI_FAULT(id)                                                                       \
  (::gemini_oracle::ref::fault::detail::Hit(                                                   \
      ::gemini_oracle::ref::fault::detail::Site<id, __FILE__, __LINE__>::registered, id))
#else
#define GEMINI_FAULT(id) (::gemini_oracle::ref::fault::Active(id))
#endif
