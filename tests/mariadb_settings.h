#pragma once
// Where the tests labelled `mariadb` find the throwaway server (scripts/mariadb).
//
// The environment first: GEMINI_ORACLE_MARIADB_{SOCKET,PORT,USER,PASSWORD,DATABASE}, as
// `eval "$(scripts/mariadb start)"` exports them. Then the file named by
// GEMINI_ORACLE_MARIADB_SETTINGS: ctest sets that variable on every `mariadb` test, and the
// fixture test that starts the server (FIXTURES_SETUP mariadb, tests/persistence/mariadb.cmake)
// writes the same export lines there. With neither, a test skips, except in CI (CI set), where
// a missing server is a failure.

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <string>

namespace gemini_oracle::testing {

inline constexpr char kMariaDbRequiredHint[] =
    "MariaDB is required in CI: run the tests through ctest, whose fixture starts the server "
    "(or eval \"$(scripts/mariadb start)\" in the shell that runs the test binary)";

struct MariaDbSettings {
  std::string socket;
  std::string port;
  std::string user;
  std::string password;
  std::string database;

  /// The store URL of `database_name` (default: the test database) over TCP; the password is
  /// not part of it (GEMINI_ORACLE_MARIADB_PASSWORD, see ExportPassword).
  std::string StoreUrl(const std::string& database_name = "") const {
    return "mariadb://" + user + "@127.0.0.1:" + port + "/" +
           (database_name.empty() ? database : database_name);
  }

  /// Puts the password where OpenStateStore reads it.
  void ExportPassword() const { ::setenv("GEMINI_ORACLE_MARIADB_PASSWORD", password.c_str(), 1); }
};

/// Whether a missing server fails the test (CI) instead of skipping it.
inline bool MariaDbRequired() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && *ci != '\0';
}

namespace detail {

inline std::optional<std::string> NonEmptyEnv(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

// Undoes the quoting of bash's printf %q for the values scripts/mariadb prints (paths, digits,
// hex): 'single quotes', $'...' is never produced for them, and backslash escapes.
inline std::string Unquote(const std::string& raw) {
  if (raw.size() >= 2 && raw.front() == '\'' && raw.back() == '\'') {
    return raw.substr(1, raw.size() - 2);
  }
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) ++i;
    out += raw[i];
  }
  return out;
}

// `export NAME=value` lines of a settings file; an unreadable file gives an empty map.
inline std::map<std::string, std::string> ReadExports(const std::string& file) {
  std::map<std::string, std::string> values;
  std::ifstream in(file);
  std::string line;
  constexpr std::string_view prefix = "export ";
  while (std::getline(in, line)) {
    if (line.compare(0, prefix.size(), prefix) != 0) continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    values[line.substr(prefix.size(), eq - prefix.size())] = Unquote(line.substr(eq + 1));
  }
  return values;
}

}  // namespace detail

/// The settings, or nullopt with `why` saying what is missing. All five values come from one
/// place (the environment when it holds them all, else the file), never a mix of two servers.
inline std::optional<MariaDbSettings> LoadMariaDbSettings(std::string* why) {
  static constexpr const char* kNames[] = {
      "GEMINI_ORACLE_MARIADB_SOCKET", "GEMINI_ORACLE_MARIADB_PORT", "GEMINI_ORACLE_MARIADB_USER",
      "GEMINI_ORACLE_MARIADB_PASSWORD", "GEMINI_ORACLE_MARIADB_DATABASE"};
  const auto from = [](auto lookup, std::string* missing) -> std::optional<MariaDbSettings> {
    MariaDbSettings s;
    std::string* fields[] = {&s.socket, &s.port, &s.user, &s.password, &s.database};
    for (std::size_t i = 0; i < 5; ++i) {
      const std::optional<std::string> value = lookup(kNames[i]);
      if (!value || value->empty()) {
        *missing = kNames[i];
        return std::nullopt;
      }
      *fields[i] = *value;
    }
    return s;
  };
  std::string missing_env;
  if (auto s = from([](const char* name) { return detail::NonEmptyEnv(name); }, &missing_env)) {
    return s;
  }
  const auto settings_file = detail::NonEmptyEnv("GEMINI_ORACLE_MARIADB_SETTINGS");
  if (!settings_file) {
    *why = missing_env + " is not set and GEMINI_ORACLE_MARIADB_SETTINGS names no settings file";
    return std::nullopt;
  }
  const auto file = detail::ReadExports(*settings_file);
  std::string missing_file;
  auto s = from(
      [&](const char* name) -> std::optional<std::string> {
        const auto it = file.find(name);
        if (it == file.end()) return std::nullopt;
        return it->second;
      },
      &missing_file);
  if (!s) {
    *why = missing_env + " is not set, and the settings file " + *settings_file +
           (file.empty() ? " is missing or empty (did the server start?)"
                         : " does not give " + missing_file);
  }
  return s;
}

}  // namespace gemini_oracle::testing
