// level1_types.hpp: element types and associative operators for the level-1 tests, with
// rapidcheck generators. Every type has no padding and every operator writes every byte of its
// result, so that results can be compared bytewise (doubles included: NaN == NaN bitwise).
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

namespace l1test {

template <class T>
bool sameBytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
template <class T>
bool sameBytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// A 3-byte record: odd element sizes split blocks at odd byte offsets.
struct Rec3 {
  char c[3];
};
// A 24-byte record.
struct Rec24 {
  std::int32_t a;
  std::uint16_t b, c;
  double d;
  std::int64_t e;
};
static_assert(sizeof(Rec24) == 24);

// 2x2 matrices over the integers mod 2^32: matrix product is associative, not commutative.
struct Mat2 {
  std::uint32_t a, b, c, d;
};
inline Mat2 operator*(const Mat2& x, const Mat2& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}
struct MatMul {
  Mat2 operator()(const Mat2& x, const Mat2& y) const { return x * y; }
};

// Short strings; concatenation (truncated to the capacity, which keeps it associative) is not
// commutative. Bytes past len are zero.
struct Str {
  std::uint8_t len;
  char s[63];
};
struct Concat {
  Str operator()(const Str& x, const Str& y) const {
    Str r{};
    r.len = static_cast<std::uint8_t>(std::min<int>(63, x.len + y.len));
    std::memcpy(r.s, x.s, x.len);
    std::memcpy(r.s + x.len, y.s, r.len - x.len);
    return r;
  }
};

// Wrapping int32 addition (signed overflow is undefined, so add as unsigned).
struct AddI32 {
  std::int32_t operator()(std::int32_t x, std::int32_t y) const {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) + static_cast<std::uint32_t>(y));
  }
};
// Floating-point addition: not associative in floating point, so the pid order is visible in
// the bits of the result.
struct AddF64 {
  double operator()(double x, double y) const { return x + y; }
};

inline std::ostream& operator<<(std::ostream& os, const Rec3& r) {
  return os << "Rec3{" << int(r.c[0]) << "," << int(r.c[1]) << "," << int(r.c[2]) << "}";
}
inline std::ostream& operator<<(std::ostream& os, const Rec24& r) {
  return os << "Rec24{" << r.a << "," << r.b << "," << r.c << "," << r.d << "," << r.e << "}";
}
inline std::ostream& operator<<(std::ostream& os, const Mat2& m) {
  return os << "[" << m.a << " " << m.b << "; " << m.c << " " << m.d << "]";
}
inline std::ostream& operator<<(std::ostream& os, const Str& s) {
  return os << '"' << std::string(s.s, s.len) << '"';
}

// Generators.
template <class T>
rc::Gen<T> gen();

template <>
inline rc::Gen<std::int32_t> gen<std::int32_t>() {
  return rc::gen::arbitrary<std::int32_t>();
}
template <>
inline rc::Gen<double> gen<double>() {
  // Finite values of very different magnitudes: floating-point sums then depend on the order.
  return rc::gen::map(rc::gen::pair(rc::gen::inRange<int>(-1000000, 1000000), rc::gen::inRange<int>(-30, 31)),
                      [](std::pair<int, int> v) { return std::ldexp(static_cast<double>(v.first), v.second); });
}
template <>
inline rc::Gen<Rec3> gen<Rec3>() {
  return rc::gen::map(rc::gen::arbitrary<std::array<char, 3>>(), [](std::array<char, 3> a) {
    Rec3 r;
    std::memcpy(r.c, a.data(), 3);
    return r;
  });
}
template <>
inline rc::Gen<Rec24> gen<Rec24>() {
  return rc::gen::exec([] {
    Rec24 r;
    r.a = *rc::gen::arbitrary<std::int32_t>();
    r.b = *rc::gen::arbitrary<std::uint16_t>();
    r.c = *rc::gen::arbitrary<std::uint16_t>();
    r.d = *gen<double>();
    r.e = *rc::gen::arbitrary<std::int64_t>();
    return r;
  });
}
template <>
inline rc::Gen<Mat2> gen<Mat2>() {
  return rc::gen::exec([] {
    auto e = rc::gen::arbitrary<std::uint32_t>();
    return Mat2{*e, *e, *e, *e};
  });
}
template <>
inline rc::Gen<Str> gen<Str>() {
  return rc::gen::exec([] {
    const int n = *rc::gen::inRange(0, 4);
    const std::string t = *rc::gen::container<std::string>(static_cast<std::size_t>(n), rc::gen::inRange('a', 'z'));
    Str s{};
    s.len = static_cast<std::uint8_t>(t.size());
    std::memcpy(s.s, t.data(), t.size());
    return s;
  });
}

}  // namespace l1test
