#include "reference_impl/store/sealing.h"

#include <gtest/gtest.h>

#include <set>

namespace gemini_oracle::ref {
namespace {

// Opens what it sealed, with a fresh nonce each time.
TEST(Sealing, RoundTripWithFreshNonces) {
  const StateKey key = Keyring::NewKey();
  const std::string ad = AssociatedData("conv", 3, key.id);
  const std::string plaintext("state \0 bytes", 13);
  std::set<std::string> nonces;
  for (int i = 0; i < 20; ++i) {
    const Sealed sealed = Seal(plaintext, ad, key);
    EXPECT_EQ(sealed.nonce.size(), 24u);
    EXPECT_EQ(sealed.ciphertext.size(), plaintext.size() + 16);
    nonces.insert(sealed.nonce);
    EXPECT_EQ(Open(sealed.ciphertext, sealed.nonce, ad, key), plaintext);
  }
  EXPECT_EQ(nonces.size(), 20u);
  const Sealed empty = Seal("", ad, key);
  EXPECT_EQ(Open(empty.ciphertext, empty.nonce, ad, key), std::string());
}

// Refuses another conversation id, version or key id in the associated data, and another key.
TEST(Sealing, AssociatedDataBindsIdVersionAndKey) {
  const StateKey key = Keyring::NewKey();
  const Sealed sealed = Seal("x", AssociatedData("conv", 3, key.id), key);
  EXPECT_TRUE(Open(sealed.ciphertext, sealed.nonce, AssociatedData("conv", 3, key.id), key));
  EXPECT_FALSE(Open(sealed.ciphertext, sealed.nonce, AssociatedData("conw", 3, key.id), key));
  EXPECT_FALSE(Open(sealed.ciphertext, sealed.nonce, AssociatedData("conv", 4, key.id), key));
  EXPECT_FALSE(
      Open(sealed.ciphertext, sealed.nonce, AssociatedData("conv", 3, "0000000000000000"), key));
  EXPECT_FALSE(
      Open(sealed.ciphertext, sealed.nonce, AssociatedData("conv", 3, key.id), Keyring::NewKey()));
  EXPECT_FALSE(
      Open(sealed.ciphertext, sealed.nonce.substr(1), AssociatedData("conv", 3, key.id), key));
}

// Encodes the associated data so that no two triples share bytes (lengths prefixed).
TEST(Sealing, AssociatedDataIsUnambiguous) {
  EXPECT_NE(AssociatedData("ab", 1, "c"), AssociatedData("a", 1, "bc"));
  EXPECT_NE(AssociatedData("a", 256, "b"), AssociatedData("a", 1, "b"));
  EXPECT_NE(AssociatedData(std::string("a\0", 2), 1, "b"),
            AssociatedData("a", 1, std::string("\0b", 2)));
  const std::string ad = AssociatedData("id", 2, "k");
  EXPECT_EQ(ad.substr(ad.size() - 1 - 8 - 8, 8), std::string("\0\0\0\0\0\0\0\x02", 8));
}

}  // namespace
}  // namespace gemini_oracle::ref
