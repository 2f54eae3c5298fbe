// level1_property_test.cpp: rapidcheck properties of the level-1 collectives (bspcheck/level1.h,
// through the typed wrappers of level1.hpp and, for alltoallv, the C API directly).
//
// Every case generates, as one rapidcheck value (so that RC_PARAMS="reproduce=..." replays it
// whole and shrinking shrinks all of it): p in 1..16, the 64-bit schedule seed and the
// scheduling strategy (bspcheck::testing::genBspCase), the element type (int32, double, a 3-byte
// and a 24-byte record; for folds int32 +, double +, 2x2 matrix product mod 2^32 and string
// concatenation, the last two not commutative), the count per process (0 included), the root and
// every process's data. Each property asserts, for its collective:
//   (a) every process's result equals a sequential model (bytewise; folds in pid order);
//   (b) the run has no findings at all: no errors, no warnings, in particular no
//       level1-hygiene warning (registrations, tag size and queue left as found);
//   (c) the number of supersteps (RunResult::supersteps and superstep_stats) and the h-relation
//       of each superstep equal the cost documented in level1.h (formulas rewritten below).
// 1000 cases per property; run more with RC_PARAMS="max_success=10000".
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <bsp.h>
#include <bspcheck/bspcheck.hpp>
#include <bspcheck/level1.h>
#include <bspcheck/level1.hpp>
#include <bspcheck/testing.hpp>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <sstream>
#include <vector>

#include "level1_types.hpp"

namespace {

namespace l1 = bspcheck::level1;
using bspcheck::RunResult;
using bspcheck::testing::BspCase;
using bspcheck::testing::genBspCase;
using bspcheck::testing::runCase;
using namespace l1test;
using std::size_t;
using std::vector;

constexpr int kCases = 1000;  // per property, unless RC_PARAMS sets max_success (~0.3 ms each)

// ---- The documented cost (level1.h), written out again -----------------------------------

struct Cost {
  int supersteps = 0;
  vector<size_t> h;  // per superstep
};

// bcast, reduce, allreduce, scan, gather, allgather, scatter, alltoall.
Cost onePhaseCost(int p, size_t B) {
  if (p == 1 || B == 0) return {};
  return {2, {0, static_cast<size_t>(p - 1) * B}};
}

Cost twoPhaseCost(int p, size_t B) {
  if (p == 1 || B == 0) return {};
  const size_t b = (B + p - 1) / p;
  return {3, {0, B - b, static_cast<size_t>(p - 1) * b}};
}

// alltoallv and exchange: counts[i][j] elements of elem bytes from i to j.
Cost vCost(int p, const vector<vector<size_t>>& counts, size_t elem) {
  if (p == 1) return {};
  const size_t tag = sizeof(int);
  size_t H = 0;
  for (int i = 0; i < p; ++i) {
    size_t out = 0, in = 0;
    for (int j = 0; j < p; ++j) {
      if (j == i) continue;
      if (counts[i][j] > 0) out += tag + counts[i][j] * elem;
      if (counts[j][i] > 0) in += tag + counts[j][i] * elem;
    }
    H = std::max({H, out, in});
  }
  return {2, {0, H}};
}

// (b) and (c) for one run.
void checkRun(const RunResult& r, const BspCase& c, const Cost& cost) {
  RC_ASSERT_BSP_CLEAN(r, c);
  RC_ASSERT(r.nprocs == c.p);
  std::ostringstream m;
  bool ok = r.supersteps == cost.supersteps && r.superstep_stats.size() == static_cast<size_t>(cost.supersteps) + 1;
  m << "supersteps: measured " << r.supersteps << " (" << r.superstep_stats.size() << " stats), documented "
    << cost.supersteps << "; h per superstep: measured";
  for (const auto& s : r.superstep_stats) m << " " << s.h_bytes;
  m << ", documented";
  for (size_t h : cost.h) m << " " << h;
  m << " (then 0 up to bsp_end)";
  if (ok) {
    for (int k = 0; k < cost.supersteps; ++k) ok = ok && r.superstep_stats[k].h_bytes == cost.h[k];
    ok = ok && r.superstep_stats.back().h_bytes == 0;
  }
  if (!ok) RC_FAIL(m.str());
}

// ---- Generators --------------------------------------------------------------------------

template <class T>
rc::Gen<T> uniform(T lo, T hi_exclusive) {
  return rc::gen::resize(100, rc::gen::inRange<T>(lo, hi_exclusive));
}

// Elements per process: 0 often, small, and large enough for uneven two-phase blocks.
size_t genCount() {
  return *rc::gen::weightedOneOf<size_t>(
      {{1, rc::gen::just<size_t>(0)}, {3, uniform<size_t>(1, 6)}, {2, uniform<size_t>(6, 41)}});
}

template <class T>
vector<T> genVector(size_t n) {
  return *rc::gen::container<vector<T>>(n, gen<T>());
}

template <class T>
vector<vector<T>> genBlocks(int p, size_t n) {
  vector<vector<T>> v;
  for (int i = 0; i < p; ++i) v.push_back(genVector<T>(n));
  return v;
}

// Calls f.template operator()<T>() for a generated element type.
template <class F>
void withDataType(F&& f) {
  switch (*uniform(0, 4)) {
    case 0: f.template operator()<std::int32_t>(); break;
    case 1: f.template operator()<double>(); break;
    case 2: f.template operator()<Rec3>(); break;
    default: f.template operator()<Rec24>(); break;
  }
}

// Calls f.template operator()<T, Op>() for a generated element type and associative operator.
template <class F>
void withOperator(F&& f) {
  switch (*uniform(0, 4)) {
    case 0: f.template operator()<std::int32_t, AddI32>(); break;
    case 1: f.template operator()<double, AddF64>(); break;
    case 2: f.template operator()<Mat2, MatMul>(); break;
    default: f.template operator()<Str, Concat>(); break;
  }
}

// The sequential model of a fold: x_first op ... op x_last, elementwise, in pid order.
template <class T, class Op>
vector<T> foldModel(const vector<vector<T>>& x, int last, Op op) {
  vector<T> acc = x[0];
  for (int i = 1; i <= last; ++i)
    for (size_t k = 0; k < acc.size(); ++k) acc[k] = op(acc[k], x[i][k]);
  return acc;
}

template <class T>
vector<T> concat(const vector<vector<T>>& x) {
  vector<T> all;
  for (const auto& v : x) all.insert(all.end(), v.begin(), v.end());
  return all;
}

// ---- Properties --------------------------------------------------------------------------

BSPCHECK_PROPERTY(Level1, Bcast, kCases) {
  const BspCase c = *genBspCase(1, 16);
  const bool two_phase = *rc::gen::arbitrary<bool>();
  withDataType([&]<class T>() {
    const size_t n = genCount();
    const int root = *uniform(0, c.p);
    const vector<T> data = genVector<T>(n);
    const T fill = *gen<T>();
    vector<vector<T>> out(c.p);
    const RunResult r = runCase(c, [&] {
      bsp_begin(bsp_nprocs());
      const int me = bsp_pid();
      vector<T> buf = me == root ? data : vector<T>(n, fill);
      if (two_phase) l1::bcast_2phase(root, buf);
      else l1::bcast(root, buf);
      out[me] = buf;
      bsp_end();
    });
    checkRun(r, c, two_phase ? twoPhaseCost(c.p, n * sizeof(T)) : onePhaseCost(c.p, n * sizeof(T)));
    for (int i = 0; i < c.p; ++i) RC_ASSERT(sameBytes(out[i], data));
  });
}

BSPCHECK_PROPERTY(Level1, Reduce, kCases) {
  const BspCase c = *genBspCase(1, 16);
  withOperator([&]<class T, class Op>() {
    const size_t n = genCount();
    const int root = *uniform(0, c.p);
    const auto x = genBlocks<T>(c.p, n);
    const T fill = *gen<T>();
    vector<vector<T>> out(c.p);
    const RunResult r = runCase(c, [&] {
      bsp_begin(bsp_nprocs());
      const int me = bsp_pid();
      vector<T> dst(n, fill);
      l1::reduce(root, x[me], dst, Op{});
      out[me] = dst;
      bsp_end();
    });
    checkRun(r, c, onePhaseCost(c.p, n * sizeof(T)));
    for (int i = 0; i < c.p; ++i)
      RC_ASSERT(sameBytes(out[i], i == root ? foldModel(x, c.p - 1, Op{}) : vector<T>(n, fill)));
  });
}

BSPCHECK_PROPERTY(Level1, Allreduce, kCases) {
  const BspCase c = *genBspCase(1, 16);
  const bool in_place = *rc::gen::arbitrary<bool>();
  withOperator([&]<class T, class Op>() {
    const size_t n = genCount();
    const auto x = genBlocks<T>(c.p, n);
    vector<vector<T>> out(c.p);
    const RunResult r = runCase(c, [&] {
      bsp_begin(bsp_nprocs());
      const int me = bsp_pid();
      vector<T> buf = x[me];
      if (in_place) {
        l1::allreduce(buf, buf, Op{});
      } else {
        vector<T> dst(n);
        l1::allreduce(buf, dst, Op{});
        buf = dst;
      }
      out[me] = buf;
      bsp_end();
    });
    checkRun(r, c, onePhaseCost(c.p, n * sizeof(T)));
    const vector<T> expect = foldModel(x, c.p - 1, Op{});
    for (int i = 0; i < c.p; ++i) RC_ASSERT(sameBytes(out[i], expect));
  });
}

BSPCHECK_PROPERTY(Level1, Scan, kCases) {
  const BspCase c = *genBspCase(1, 16);
  const bool in_place = *rc::gen::arbitrary<bool>();
  withOperator([&]<class T, class Op>() {
    const size_t n = genCount();
    const auto x = genBlocks<T>(c.p, n);
    vector<vector<T>> out(c.p);
    const RunResult r = runCase(c, [&] {
      bsp_begin(bsp_nprocs());
      const int me = bsp_pid();
      vector<T> buf = x[me];
      if (in_place) {
        l1::scan(buf, buf, Op{});
      } else {
        vector<T> dst(n);
        l1::scan(buf, dst, Op{});
        buf = dst;
      }
      out[me] = buf;
      bsp_end();
    });
    checkRun(r, c, onePhaseCost(c.p, n * sizeof(T)));
    for (int i = 0; i < c.p; ++i) RC_ASSERT(sameBytes(out[i], foldModel(x, i, Op{})));
  });
}

// A scalar fold through the scalar overloads (count 1).
BSPCHECK_PROPERTY(Level1, ScalarFolds, kCases) {
  const BspCase c = *genBspCase(1, 16);
  const auto x = *rc::gen::container<vector<Mat2>>(static_cast<size_t>(c.p), gen<Mat2>());
  const int root = *uniform(0, c.p);
  vector<Mat2> all(c.p), pre(c.p), one(c.p);
  const RunResult r = runCase(c, [&] {
    bsp_begin(bsp_nprocs());
    const int me = bsp_pid();
    all[me] = l1::allreduce(x[me], MatMul{});
    pre[me] = l1::scan(x[me], MatMul{});
    one[me] = l1::reduce(root, x[me], MatMul{});
    bsp_end();
  });
  RC_ASSERT_BSP_CLEAN(r, c);
  RC_ASSERT(r.supersteps == (c.p == 1 ? 0 : 6));
  Mat2 acc = x[0];
  for (int i = 0; i < c.p; ++i) {
    if (i > 0) acc = acc * x[i];
    RC_ASSERT(sameBytes(pre[i], acc));
  }
  for (int i = 0; i < c.p; ++i) RC_ASSERT(sameBytes(all[i], acc));
  RC_ASSERT(sameBytes(one[root], acc));
}

BSPCHECK_PROPERTY(Level1, Gather, kCases) {
  const BspCase c = *genBspCase(1, 16);
  const bool all = *rc::gen::arbitrary<bool>();
  withDataType([&]<class T>() {
    const size_t n = genCount();
    const int root = *uniform(0, c.p);
    const auto x = genBlocks<T>(c.p, n);
    vector<vector<T>> out(c.p);
    const RunResult r = runCase(c, [&] {
      bsp_begin(bsp_nprocs());
      const int me = bsp_pid();
      out[me] = all ? l1::allgather(x[me]) : l1::gather(root, x[me]);
      bsp_end();
    });
    checkRun(r, c, onePhaseCost(c.p, n * sizeof(T)));
    const vector<T> expect = concat(x);
    for (int i = 0; i < c.p; ++i) RC_ASSERT(sameBytes(out[i], all || i == root ? expect : vector<T>{}));
  });
}

BSPCHECK_PROPERTY(Level1, Scatter, kCases) {
  const BspCase c = *genBspCase(1, 16);
  withDataType([&]<class T>() {
    const size_t n = genCount();
    const int root = *uniform(0, c.p);
    const auto blocks = genBlocks<T>(c.p, n);
    const vector<T> src = concat(blocks);
    vector<vector<T>> out(c.p);
    const RunResult r = runCase(c, [&] {
      bsp_begin(bsp_nprocs());
      const int me = bsp_pid();
      vector<T> dst(n);
      l1::scatter(root, me == root ? src : vector<T>{}, dst);
      out[me] = dst;
      bsp_end();
    });
    checkRun(r, c, onePhaseCost(c.p, n * sizeof(T)));
    for (int i = 0; i < c.p; ++i) RC_ASSERT(sameBytes(out[i], blocks[i]));
  });
}

BSPCHECK_PROPERTY(Level1, Alltoall, kCases) {
  const BspCase c = *genBspCase(1, 16);
  withDataType([&]<class T>() {
    const size_t n = genCount();
    vector<vector<vector<T>>> blk;  // blk[i][j]: what i sends to j
    for (int i = 0; i < c.p; ++i) blk.push_back(genBlocks<T>(c.p, n));
    vector<vector<T>> out(c.p);
    const RunResult r = runCase(c, [&] {
      bsp_begin(bsp_nprocs());
      const int me = bsp_pid();
      out[me] = l1::alltoall(concat(blk[me]));
      bsp_end();
    });
    checkRun(r, c, onePhaseCost(c.p, n * sizeof(T)));
    for (int i = 0; i < c.p; ++i) {
      vector<vector<T>> expect;
      for (int j = 0; j < c.p; ++j) expect.push_back(blk[j][i]);
      RC_ASSERT(sameBytes(out[i], concat(expect)));
    }
  });
}

// alltoallv through the C++ wrapper (contiguous, pid order) or the C API with the blocks laid
// out in reverse pid order on both sides; exchange through its wrapper.
BSPCHECK_PROPERTY(Level1, AlltoallvAndExchange, kCases) {
  const BspCase c = *genBspCase(1, 16);
  const int how = *uniform(0, 3);  // 0: alltoallv wrapper, 1: alltoallv C API reversed, 2: exchange
  withDataType([&]<class T>() {
    const size_t maxc = *rc::gen::element<size_t>(0, 1, 3, 8);
    vector<vector<size_t>> counts(c.p, vector<size_t>(c.p));
    for (auto& row : counts)
      for (auto& k : row) k = *uniform<size_t>(0, maxc + 1);
    vector<vector<vector<T>>> blk(c.p, vector<vector<T>>(c.p));
    for (int i = 0; i < c.p; ++i)
      for (int j = 0; j < c.p; ++j) blk[i][j] = genVector<T>(counts[i][j]);
    vector<vector<vector<T>>> got(c.p);  // got[i][j]: what i received from j
    const RunResult r = runCase(c, [&] {
      bsp_begin(bsp_nprocs());
      const int me = bsp_pid(), p = bsp_nprocs();
      vector<size_t> sc(p), rcv(p);
      for (int j = 0; j < p; ++j) sc[j] = counts[me][j], rcv[j] = counts[j][me];
      got[me].assign(p, {});
      if (how == 2) {
        got[me] = l1::exchange(blk[me]);
      } else if (how == 0) {
        const vector<T> src = concat(blk[me]);
        vector<T> dst(std::accumulate(rcv.begin(), rcv.end(), size_t{0}));
        l1::alltoallv(src, sc, dst, rcv);
        size_t at = 0;
        for (int j = 0; j < p; ++j) {
          got[me][j].assign(dst.begin() + at, dst.begin() + at + rcv[j]);
          at += rcv[j];
        }
      } else {
        vector<size_t> sd(p), rd(p);
        size_t s_at = 0, r_at = 0;
        for (int j = p - 1; j >= 0; --j) sd[j] = s_at, s_at += sc[j], rd[j] = r_at, r_at += rcv[j];
        vector<T> src(s_at), dst(r_at);
        for (int j = 0; j < p; ++j) std::copy(blk[me][j].begin(), blk[me][j].end(), src.begin() + sd[j]);
        bsp_alltoallv(src.data(), sc.data(), sd.data(), dst.data(), rcv.data(), rd.data(), sizeof(T));
        for (int j = 0; j < p; ++j) got[me][j].assign(dst.begin() + rd[j], dst.begin() + rd[j] + rcv[j]);
      }
      bsp_end();
    });
    checkRun(r, c, vCost(c.p, counts, sizeof(T)));
    for (int i = 0; i < c.p; ++i) {
      RC_ASSERT(got[i].size() == static_cast<size_t>(c.p));
      for (int j = 0; j < c.p; ++j) RC_ASSERT(sameBytes(got[i][j], blk[j][i]));
    }
  });
}

}  // namespace
