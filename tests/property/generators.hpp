// generators.hpp: rapidcheck generators of raw BSPlib programs (see model.hpp, normalize()).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "model.hpp"

namespace bspmodel {

inline rc::Gen<std::uint8_t> genByte() {
  return rc::gen::map(rc::gen::inRange<int>(0, 256), [](int v) { return static_cast<std::uint8_t>(v); });
}

// Lists are generated with rc::gen::container so that shrinking removes elements; their
// lengths are uniform in 0..max (whatever the rapidcheck size), and the elements are generated
// at full size.
template <typename T>
rc::Gen<std::vector<T>> smallList(int max, rc::Gen<T> element) {
  return rc::gen::resize(max, rc::gen::container<std::vector<T>>(rc::gen::resize(100, element)));
}

inline rc::Gen<RawOp> genRawOp() {
  return rc::gen::exec([] {
    RawOp op;
    op.kind = static_cast<std::uint8_t>(*rc::gen::inRange<int>(0, 12));
    for (auto& v : op.x) v = *genByte();
    if (op.kind == 0) op.data = *rc::gen::container<Bytes>(*rc::gen::inRange<int>(1, 7), genByte());
    return op;
  });
}

inline rc::Gen<RawColl> genRawColl() {
  return rc::gen::exec([] {
    RawColl c;
    c.kind = static_cast<std::uint8_t>(*rc::gen::inRange<int>(0, 7));
    c.x = *genByte();
    for (int l = 0; l < kMaxProcs; ++l) {
      c.area[l] = *genByte();
      c.size[l] = *genByte();
      c.pos[l] = *genByte();
    }
    return c;
  });
}

// The operation lists of all kMaxProcs processes are generated whatever p is, so that shrinking
// p leaves the remaining processes' programs alone.
inline rc::Gen<RawStep> genRawStep() {
  return rc::gen::exec([] {
    RawStep s;
    s.coll = *smallList(5, genRawColl());
    for (auto& ops : s.ops) ops = *smallList(12, genRawOp());
    return s;
  });
}

inline rc::Gen<RawProgram> genRawProgram() {
  return rc::gen::exec([] {
    RawProgram raw;
    raw.p = *rc::gen::resize(100, rc::gen::inRange<int>(1, kMaxProcs + 1));  // uniform in 1..8
    raw.seed = *rc::gen::arbitrary<std::uint64_t>();
    raw.roundRobin = *rc::gen::element(false, false, false, true);
    raw.steps = *smallList(8, genRawStep());  // the last superstep only receives
    return raw;
  });
}

}  // namespace bspmodel
