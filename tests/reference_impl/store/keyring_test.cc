#include "reference_impl/store/keyring.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <map>
#include <optional>
#include <regex>

#include "reference_impl/provider_error.h"
#include "tests/reference_impl/store/store_test_support.h"

namespace gemini_oracle::ref::testing {
namespace {

constexpr char kKeyA[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
constexpr char kKeyB[] = "F0E1D2C3B4A5968778695A4B3C2D1E0F00112233445566778899AABBCCDDEEFF";

// Sets or clears environment variables for one scope, and puts the old values back.
class ScopedEnv {
 public:
  void Set(const char* name, const char* value) {
    if (saved_.count(name) == 0) {
      const char* old = std::getenv(name);
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

// Derives a 16-hex-digit id from the key itself: stable, different per key, fixed by a known
// answer (BLAKE2b-256 keyed with "gemini-oracle/state-key-id/v1", first 8 bytes).
TEST(Keyring, KeyIdIsDerivedFromTheKey) {
  const StateKey a = Keyring::KeyFromHex(kKeyA);
  const StateKey b = Keyring::KeyFromHex(kKeyB);
  EXPECT_TRUE(std::regex_match(a.id, std::regex("[0-9a-f]{16}"))) << a.id;
  EXPECT_EQ(a.id, Keyring::KeyFromHex(kKeyA).id);
  EXPECT_NE(a.id, b.id);
  EXPECT_EQ(a.id, KeyIdOf(a.bytes));
  EXPECT_EQ(a.id, "4125943216fcdd60");  // also hashlib.blake2b(key, digest_size=32, key=domain)
  EXPECT_EQ(KeyToHex(a), kKeyA);
  EXPECT_EQ(a.bytes[1], 0x01);
  EXPECT_EQ(b.bytes[0], 0xf0);
}

// Reads a key file: comments, blank lines and surrounding whitespace ignored, first key current.
TEST(Keyring, FromFileReadsKeysInOrder) {
  gemini_oracle::testing::TempDir dir;
  const auto file = dir.WritePrivate(
      "keys", std::string("# state keys\n\n  ") + kKeyB + "  \r\n\t# old\n" + kKeyA + "\n");
  const Keyring ring = Keyring::FromFile(file);
  ASSERT_EQ(ring.keys().size(), 2u);
  EXPECT_EQ(ring.Current().id, Keyring::KeyFromHex(kKeyB).id);
  EXPECT_EQ(ring.keys()[1].bytes, Keyring::KeyFromHex(kKeyA).bytes);
  ASSERT_NE(ring.Find(Keyring::KeyFromHex(kKeyA).id), nullptr);
  EXPECT_EQ(ring.Find("0000000000000000"), nullptr);
}

// Refuses a malformed key line naming the file and line, never the key.
TEST(Keyring, MalformedLineNamesFileAndLineOnly) {
  gemini_oracle::testing::TempDir dir;
  const std::string bad_lines[] = {
      std::string(kKeyA).substr(0, 63),    // 63 digits
      std::string(kKeyA) + "0",            // 65 digits
      "g" + std::string(kKeyA).substr(1),  // not hex
      std::string(kKeyA) + " # current",   // a comment after the key
      std::string(kKeyA).substr(0, 32) + " " + std::string(kKeyA).substr(32),
  };
  for (const auto& bad : bad_lines) {
    const auto file = dir.WritePrivate("keys", std::string("# comment\n") + kKeyB + "\n" + bad + "\n");
    const auto error = ErrorOf([&] { Keyring::FromFile(file); });
    ASSERT_TRUE(error.has_value()) << bad;
    EXPECT_EQ(error->code(), "store.key_malformed");
    const std::string what = error->what();
    EXPECT_NE(what.find(file.string() + ":3"), std::string::npos) << what;
    EXPECT_EQ(what.find(std::string(kKeyA).substr(0, 16)), std::string::npos) << what;
    EXPECT_EQ(what.find(std::string(kKeyB).substr(0, 16)), std::string::npos) << what;
  }
}

// Reports a missing or keyless file as key_missing.
TEST(Keyring, MissingFileOrNoKeyIsKeyMissing) {
  gemini_oracle::testing::TempDir dir;
  EXPECT_EQ(CodeOf([&] { Keyring::FromFile(dir.path() / "absent"); }), "store.key_missing");
  EXPECT_EQ(CodeOf([&] { Keyring::FromFile(dir.WritePrivate("empty", "# none\n\n")); }),
            "store.key_missing");
  EXPECT_EQ(CodeOf([&] { Keyring::FromKeys({}); }), "store.key_missing");
}

// Takes the key file variable first, then the key variable, and refuses neither being set.
TEST(Keyring, FromEnvironmentPrefersTheKeyFile) {
  gemini_oracle::testing::TempDir dir;
  const auto file = dir.WritePrivate("keys", std::string(kKeyA) + "\n");
  ScopedEnv env;
  env.Set("GEMINI_ORACLE_STATE_KEY_FILE", file.c_str());
  env.Set("GEMINI_ORACLE_STATE_KEY", kKeyB);
  EXPECT_EQ(Keyring::FromEnvironment().Current().id, Keyring::KeyFromHex(kKeyA).id);
  env.Set("GEMINI_ORACLE_STATE_KEY_FILE", "");
  EXPECT_EQ(Keyring::FromEnvironment().Current().id, Keyring::KeyFromHex(kKeyB).id);
  env.Set("GEMINI_ORACLE_STATE_KEY", (std::string(" ") + kKeyB + "\n").c_str());
  EXPECT_EQ(Keyring::FromEnvironment().keys().size(), 1u);
  env.Set("GEMINI_ORACLE_STATE_KEY", "NEEDLE-5e1f");
  const auto error = ErrorOf([] { Keyring::FromEnvironment(); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code(), "store.key_malformed");
  EXPECT_NE(std::string(error->what()).find("GEMINI_ORACLE_STATE_KEY"), std::string::npos);
  EXPECT_EQ(std::string(error->what()).find("NEEDLE"), std::string::npos);
  env.Set("GEMINI_ORACLE_STATE_KEY", nullptr);
  env.Set("GEMINI_ORACLE_STATE_KEY_FILE", nullptr);
  EXPECT_EQ(CodeOf([] { Keyring::FromEnvironment(); }), "store.key_missing");
}

// Makes fresh random keys, and corrects an id that does not belong to its key.
TEST(Keyring, NewKeysAreRandomAndIdsFollowTheKey) {
  const StateKey a = Keyring::NewKey();
  const StateKey b = Keyring::NewKey();
  EXPECT_NE(a.bytes, b.bytes);
  EXPECT_NE(Keyring::Ephemeral().Current().id, Keyring::Ephemeral().Current().id);
  StateKey forged = a;
  forged.id = b.id;
  EXPECT_EQ(Keyring::FromKeys({forged}).Current().id, a.id);
  EXPECT_EQ(Keyring::KeyFromHex(KeyToHex(a)).bytes, a.bytes);
  EXPECT_EQ(CodeOf([] { Keyring::KeyFromHex("abc"); }), "store.key_malformed");
}

// Refuses a key file its group or others may write, naming the file and its mode and never the
// key, through the environment variable too; one they may only read is used with a warning
// (secret mounts are often 0644 or 0444); a private one without a word.
TEST(Keyring, KeyFileOthersMayWriteIsRefusedReadableIsWarned) {
  gemini_oracle::testing::TempDir dir;
  const auto file = dir.WritePrivate("keys", std::string(kKeyA) + "\n");
  for (const auto mode : {0620, 0602, 0660, 0666}) {
    std::filesystem::permissions(file, static_cast<std::filesystem::perms>(mode));
    const auto error = ErrorOf([&] { Keyring::FromFile(file); });
    ASSERT_TRUE(error.has_value()) << std::oct << mode;
    EXPECT_EQ(error->code(), "store.key_exposed");
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode));
    const std::string what = error->what();
    EXPECT_NE(what.find(file.string() + ", mode " + text), std::string::npos) << what;
    EXPECT_EQ(what.find(std::string(kKeyA).substr(0, 16)), std::string::npos) << what;
  }
  {
    ScopedEnv env;
    env.Set("GEMINI_ORACLE_STATE_KEY_FILE", file.c_str());
    EXPECT_EQ(CodeOf([] { Keyring::FromEnvironment(); }), "store.key_exposed");
  }
  for (const auto mode : {0644, 0640, 0604, 0444}) {
    std::filesystem::permissions(file, static_cast<std::filesystem::perms>(mode));
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(Keyring::FromFile(file).Current().id, Keyring::KeyFromHex(kKeyA).id);
    const std::string warned = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(warned.find("warning: the key file " + file.string()), std::string::npos) << warned;
    EXPECT_EQ(warned.find(std::string(kKeyA).substr(0, 16)), std::string::npos) << warned;
  }
  for (const auto mode : {0600, 0400}) {
    std::filesystem::permissions(file, static_cast<std::filesystem::perms>(mode));
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(Keyring::FromFile(file).Current().id, Keyring::KeyFromHex(kKeyA).id);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  }
}

// Writes a new key file with mode 600 whatever the umask, readable back as the same key, and
// never replaces what is at the name: a file, or a link to one.
TEST(Keyring, NewKeyFileIsPrivateAndNeverReplacesAFile) {
  gemini_oracle::testing::TempDir dir;
  const StateKey key = Keyring::NewKey();
  const auto file = dir.path() / "state.key";
  const mode_t umask_before = ::umask(0);
  WriteNewKeyFile(file, key);
  ::umask(umask_before);
  EXPECT_EQ(std::filesystem::status(file).permissions(),
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  EXPECT_EQ(Keyring::FromFile(file).Current().bytes, key.bytes);
  const std::string before = gemini_oracle::testing::ReadText(file);
  try {
    WriteNewKeyFile(file, Keyring::NewKey());
    ADD_FAILURE() << "an existing key file was replaced";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::file_exists);
  }
  EXPECT_EQ(gemini_oracle::testing::ReadText(file), before);
  const auto target = dir.WritePrivate("elsewhere", "kept\n");
  std::filesystem::create_symlink(target, dir.path() / "link.key");
  EXPECT_THROW(WriteNewKeyFile(dir.path() / "link.key", key), std::system_error);
  EXPECT_EQ(gemini_oracle::testing::ReadText(target), "kept\n");
}

}  // namespace
}  // namespace gemini_oracle::ref::testing
