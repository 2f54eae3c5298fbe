// runtime/base/hash.hpp: the one place for hash functions. FNV-1a and CRC-32C against the published
// test vectors, the legacy basis of the persisted hashes pinned, and the content hash of the checker.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "replay/trace_format.hpp"
#include "runtime/base/hash.hpp"

using bspcheck::rt::content_hash;
using bspcheck::rt::Fnv1a32;
using bspcheck::rt::Fnv1a64;

namespace {

std::uint64_t fnv64(const std::string& s) { return bspcheck::rt::fnv1a64(s.data(), s.size()); }
std::uint32_t fnv32(const std::string& s) { return bspcheck::rt::fnv1a32(s.data(), s.size()); }

}  // namespace

// The test vectors of the FNV reference (draft-eastlake-fnv): a wrong basis or prime shows here.
TEST(Hash, Fnv1aMatchesTheReferenceVectors) {
  EXPECT_EQ(fnv64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv64("foobar"), 0x85944171f73967e8ull);
  EXPECT_EQ(fnv32(""), 0x811c9dc5u);
  EXPECT_EQ(fnv32("a"), 0xe40c292cu);
  EXPECT_EQ(fnv32("foobar"), 0xbf9cf968u);
}

TEST(Hash, Fnv1aIsTheSameFedInPieces) {
  Fnv1a64 whole, pieces;
  whole.add(std::string_view("foobar"));
  pieces.add(std::string_view("foo"));
  pieces.add("ba", 2);
  pieces.add(static_cast<std::uint8_t>('r'));
  EXPECT_EQ(whole.value(), pieces.value());
  EXPECT_EQ(whole.value(), fnv64("foobar"));
}

// The program digest of version-1 traces and SARIF's bspCheckFinding/v1 fingerprints were made with
// this basis; they outlive a build, so it must not change (values computed independently).
TEST(Hash, LegacyBasisOfPersistedHashesIsPinned) {
  Fnv1a64 empty(bspcheck::rt::kFnv1a64LegacyBasis), a(bspcheck::rt::kFnv1a64LegacyBasis),
      foobar(bspcheck::rt::kFnv1a64LegacyBasis);
  a.add(std::string_view("a"));
  foobar.add(std::string_view("foobar"));
  EXPECT_EQ(empty.value(), 0x14650fb0739d0383ull);
  EXPECT_EQ(a.value(), 0x44bd8ad473cd9906ull);
  EXPECT_EQ(foobar.value(), 0x88fad7c0a8ff07f2ull);
}

// A call's data checksum (docs/trace-format.md): FNV-1a, 32 bits, in format versions 1 and 2;
// from version 3 on, CRC-32C of 16 bytes or more and FNV-1a of fewer.
TEST(Hash, TraceDataChecksumIsFnv1a32ThenCrc32c) {
  const std::string payload = "a payload of a put";  // 18 bytes
  auto crc = [](const std::string& s) {
    bspcheck::rt::Crc32c c;
    c.add(s.data(), s.size());
    return c.value();
  };
  EXPECT_EQ(bspcheck::trace::checksum(payload.data(), payload.size(), 2), fnv32(payload));
  EXPECT_EQ(bspcheck::trace::checksum(payload.data(), payload.size(), 3), crc(payload));
  EXPECT_EQ(bspcheck::trace::checksum(payload.data(), payload.size()), crc(payload));
  EXPECT_EQ(bspcheck::trace::checksum("foobar", 6, 1), 0xbf9cf968u);
  EXPECT_EQ(bspcheck::trace::checksum("foobar", 6, 2), 0xbf9cf968u);
  EXPECT_EQ(bspcheck::trace::checksum("foobar", 6, 3), 0xbf9cf968u) << "below 16 bytes: FNV-1a";
  const std::string sixteen = "0123456789abcdef", fifteen = sixteen.substr(0, 15);
  EXPECT_EQ(bspcheck::trace::checksum(sixteen.data(), 16, 3), crc(sixteen));
  EXPECT_EQ(bspcheck::trace::checksum(fifteen.data(), 15, 3), fnv32(fifteen));
}

// CRC-32C against its check value and the test vectors of RFC 3720 (iSCSI), B.4.
TEST(Hash, Crc32cMatchesTheReferenceVectors) {
  auto crc = [](const std::vector<std::uint8_t>& v) {
    bspcheck::rt::Crc32c c;
    c.add(v.data(), v.size());
    return c.value();
  };
  const std::string check = "123456789";
  EXPECT_EQ(crc({check.begin(), check.end()}), 0xE3069283u);
  EXPECT_EQ(crc({}), 0u);
  EXPECT_EQ(crc(std::vector<std::uint8_t>(32, 0x00)), 0x8A9136AAu);
  EXPECT_EQ(crc(std::vector<std::uint8_t>(32, 0xFF)), 0x62A8AB43u);
  std::vector<std::uint8_t> up(32), down(32);
  for (int i = 0; i < 32; ++i) {
    up[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
    down[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(31 - i);
  }
  EXPECT_EQ(crc(up), 0x46DD794Eu);
  EXPECT_EQ(crc(down), 0x113FDB5Cu);
}

// Fed in pieces of every length and alignment (the eight-byte instruction, the three interleaved
// lanes of runs of 12 KiB and more, the byte tail, the table where the processor has no SSE4.2),
// CRC-32C equals a bit-at-a-time reference.
TEST(Hash, Crc32cIsTheSameFedInPieces) {
  std::vector<std::uint8_t> bytes(100000);
  std::uint64_t x = 0x9e3779b97f4a7c15ULL;
  for (auto& b : bytes) {  // every bit of every lane matters: no pattern that a wrong shift would keep
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b = static_cast<std::uint8_t>(x);
  }
  std::uint32_t reference = 0xFFFFFFFFu;
  for (std::uint8_t b : bytes) {
    reference ^= b;
    for (int k = 0; k < 8; ++k) reference = (reference >> 1) ^ (0x82F63B78u & (0u - (reference & 1u)));
  }
  reference = ~reference;
  for (std::size_t piece : {1, 3, 7, 8, 9, 64, 333, 1000, 12287, 12288, 12289, 24583, 65536, 100000}) {
    bspcheck::rt::Crc32c c;
    for (std::size_t at = 0; at < bytes.size(); at += piece)
      c.add(bytes.data() + at, std::min(piece, bytes.size() - at));
    EXPECT_EQ(c.value(), reference) << "pieces of " << piece;
  }
}

// The content hash behind hp-src-modified and hp-dst-conflict: equal bytes hash equal wherever
// they are, and changing any one byte (in the 32-byte lanes or in either tail) changes it.
TEST(Hash, ContentHashSeesEveryByte) {
  std::vector<unsigned char> a(200), b(200 + 3);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<unsigned char>(i * 37 + 11);
  for (std::size_t n : {0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100, 200}) {
    std::memcpy(b.data() + 3, a.data(), n);  // same bytes, other (unaligned) address
    const std::uint64_t h = content_hash(a.data(), n);
    EXPECT_EQ(h, content_hash(b.data() + 3, n)) << "n=" << n;
    for (std::size_t pos = 0; pos < n; ++pos) {
      b[3 + pos] ^= 0x01;
      EXPECT_NE(h, content_hash(b.data() + 3, n)) << "n=" << n << " byte " << pos;
      b[3 + pos] ^= 0x01;
    }
  }
  // The length is part of the hash: a prefix of zeros does not hash like a shorter one.
  std::vector<unsigned char> zeros(64, 0);
  EXPECT_NE(content_hash(zeros.data(), 32), content_hash(zeros.data(), 64));
}
