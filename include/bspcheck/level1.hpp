// level1.hpp: typed C++ wrappers of the level-1 collectives of bspcheck/level1.h.
//
//   namespace l1 = bspcheck::level1;
//   std::vector<double> v(n);            ...
//   l1::bcast(0, v);                              // any contiguous range: vector, array, span
//   double s = l1::allreduce(x, std::plus<>{});   // scalar fold, in pid order, same bits everywhere
//   auto m = l1::allreduce(mats, [](const Mat& a, const Mat& b) { return a * b; });  // non-commutative
//   std::vector<int> all = l1::allgather(mine);   // p * mine.size() elements
//   auto in = l1::exchange(out);                  // out[j] goes to process j; in[i] came from i
//
// Element types must be trivially copyable (they travel as bytes). Operators are binary
// function objects T(const T&, const T&), associative, not necessarily commutative: results are
// folded in increasing pid order, x_0 op x_1 op ... op x_{p-1}. They must not throw and must not
// call BSPlib. Every function is collective, follows the level-1 rules and has the BSP cost given
// in level1.h (S supersteps, h-relation per superstep), with B = count * sizeof(T).
#pragma once

#include <cstddef>
#include <cstring>
#include <ranges>
#include <span>
#include <type_traits>
#include <vector>

#include "bsp.h"
#include "bspcheck/level1.h"

namespace bspcheck::level1 {

template <class T>
concept Transferable = std::is_trivially_copyable_v<T> && !std::is_const_v<T>;

// A contiguous range of Transferable elements (std::vector<T>, std::array<T, N>, std::span<T>, ...).
template <class R>
concept Buffer = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    Transferable<std::remove_cv_t<std::ranges::range_value_t<R>>>;

template <Buffer R>
using element_t = std::remove_cv_t<std::ranges::range_value_t<R>>;

namespace detail {

template <class T, class Op>
void apply_op(void* acc, const void* x, std::size_t count, void* ctx) {
  Op& op = *static_cast<Op*>(ctx);
  T* a = static_cast<T*>(acc);
  const T* b = static_cast<const T*>(x);
  for (std::size_t k = 0; k < count; ++k) a[k] = op(static_cast<const T&>(a[k]), b[k]);
}

template <class R>
auto* data(R&& r) {
  return std::ranges::data(r);
}

inline std::size_t nprocs() { return static_cast<std::size_t>(bsp_nprocs()); }

}  // namespace detail

// ---- broadcast ------------------------------------------------------------------------------

// Root's buf to every process's buf (all of the same size). S = 2; h = 0, (p-1)B.
template <Buffer R>
void bcast(int root, R&& buf) {
  bsp_bcast(root, detail::data(buf), std::ranges::size(buf), sizeof(element_t<R>));
}
template <Transferable T>
requires(!Buffer<T&>) void bcast(int root, T& value) { bsp_bcast(root, &value, 1, sizeof(T)); }

// Two-phase broadcast: S = 3; h = 0, B - b, (p-1)b with b = ceil(B/p). For large B.
template <Buffer R>
void bcast_2phase(int root, R&& buf) {
  bsp_bcast_2phase(root, detail::data(buf), std::ranges::size(buf), sizeof(element_t<R>));
}

// ---- folds ----------------------------------------------------------------------------------

// dst = src_0 op ... op src_{p-1} elementwise, on root only (dst ignored elsewhere; it may be
// empty there). src and dst have the same size on root. S = 2; h = 0, (p-1)B.
template <Buffer S, Buffer D, class Op>
requires std::is_same_v<element_t<S>, element_t<D>>
void reduce(int root, const S& src, D&& dst, Op op) {
  using T = element_t<S>;
  bsp_reduce(root, detail::data(src), bsp_pid() == root ? static_cast<void*>(detail::data(dst)) : nullptr,
             std::ranges::size(src), sizeof(T), &detail::apply_op<T, Op>, &op);
}
// Scalar fold to root: the result is meaningful on root only (elsewhere it is x).
template <Transferable T, class Op>
requires(!Buffer<T&>) T reduce(int root, const T& x, Op op) {
  T result = x;
  bsp_reduce(root, &x, &result, 1, sizeof(T), &detail::apply_op<T, Op>, &op);
  return result;
}

// Fold to all: dst on every process. S = 2; h = 0, (p-1)B.
template <Buffer S, Buffer D, class Op>
requires std::is_same_v<element_t<S>, element_t<D>>
void allreduce(const S& src, D&& dst, Op op) {
  using T = element_t<S>;
  bsp_allreduce(detail::data(src), detail::data(dst), std::ranges::size(src), sizeof(T), &detail::apply_op<T, Op>, &op);
}
template <Transferable T, class Op>
requires(!Buffer<T&>) T allreduce(const T& x, Op op) {
  T result = x;
  bsp_allreduce(&x, &result, 1, sizeof(T), &detail::apply_op<T, Op>, &op);
  return result;
}

// Inclusive prefix: dst on process i = src_0 op ... op src_i. S = 2; h = 0, (p-1)B.
template <Buffer S, Buffer D, class Op>
requires std::is_same_v<element_t<S>, element_t<D>>
void scan(const S& src, D&& dst, Op op) {
  using T = element_t<S>;
  bsp_scan(detail::data(src), detail::data(dst), std::ranges::size(src), sizeof(T), &detail::apply_op<T, Op>, &op);
}
template <Transferable T, class Op>
requires(!Buffer<T&>) T scan(const T& x, Op op) {
  T result = x;
  bsp_scan(&x, &result, 1, sizeof(T), &detail::apply_op<T, Op>, &op);
  return result;
}

// ---- gather, scatter, all-to-all ------------------------------------------------------------

// Root receives p * size(src) elements, block i from process i; the others get an empty vector.
// S = 2; h = 0, (p-1)B.
template <Buffer S>
std::vector<element_t<S>> gather(int root, const S& src) {
  using T = element_t<S>;
  const std::size_t n = std::ranges::size(src);
  std::vector<T> out(bsp_pid() == root ? n * detail::nprocs() : 0);
  bsp_gather(root, detail::data(src), out.data(), n, sizeof(T));
  return out;
}
template <Transferable T>
requires(!Buffer<T&>) std::vector<T> gather(int root, const T& x) { return gather(root, std::span<const T, 1>(&x, 1)); }

// Every process receives p * size(src) elements, block i from process i. S = 2; h = 0, (p-1)B.
template <Buffer S>
std::vector<element_t<S>> allgather(const S& src) {
  using T = element_t<S>;
  const std::size_t n = std::ranges::size(src);
  std::vector<T> out(n * detail::nprocs());
  bsp_allgather(detail::data(src), out.data(), n, sizeof(T));
  return out;
}
template <Transferable T>
requires(!Buffer<T&>) std::vector<T> allgather(const T& x) { return allgather(std::span<const T, 1>(&x, 1)); }

// dst on process i = block i of root's src (p * size(dst) elements on root; ignored elsewhere).
// S = 2; h = 0, (p-1)B.
template <Buffer S, Buffer D>
requires std::is_same_v<element_t<S>, element_t<D>>
void scatter(int root, const S& src, D&& dst) {
  using T = element_t<S>;
  bsp_scatter(root, bsp_pid() == root ? static_cast<const void*>(detail::data(src)) : nullptr, detail::data(dst),
              std::ranges::size(dst), sizeof(T));
}

// Block j of src (size(src)/p elements) goes to process j; block i of the result came from i.
// S = 2; h = 0, (p-1)B with B = size(src)/p * sizeof(T).
template <Buffer S>
std::vector<element_t<S>> alltoall(const S& src) {
  using T = element_t<S>;
  const std::size_t n = std::ranges::size(src) / detail::nprocs();
  std::vector<T> out(n * detail::nprocs());
  bsp_alltoall(detail::data(src), out.data(), n, sizeof(T));
  return out;
}

// All-to-all with varying counts, contiguous blocks: src holds sendcounts[0] elements for
// process 0, then sendcounts[1] for process 1, ...; dst receives recvcounts[i] elements from
// process i, in pid order. S = 2 (p >= 2); h = 0, H (level1.h).
template <Buffer S, Buffer D>
requires std::is_same_v<element_t<S>, element_t<D>>
void alltoallv(const S& src, std::span<const std::size_t> sendcounts, D&& dst,
               std::span<const std::size_t> recvcounts) {
  using T = element_t<S>;
  const std::size_t p = detail::nprocs();
  std::vector<std::size_t> sdispls(p), rdispls(p);
  for (std::size_t i = 1; i < p; ++i) {
    sdispls[i] = sdispls[i - 1] + sendcounts[i - 1];
    rdispls[i] = rdispls[i - 1] + recvcounts[i - 1];
  }
  bsp_alltoallv(detail::data(src), sendcounts.data(), sdispls.data(), detail::data(dst), recvcounts.data(),
                rdispls.data(), sizeof(T));
}

// Exchange: out[j] goes to process j (out has p entries); the result's entry i is what process
// i sent to the caller. Counts need not be known in advance. S = 2 (p >= 2); h = 0, H.
template <Transferable T>
std::vector<std::vector<T>> exchange(const std::vector<std::vector<T>>& out) {
  const std::size_t p = detail::nprocs();
  std::vector<std::size_t> counts(p), displs(p);
  std::vector<T> flat;
  for (std::size_t j = 0; j < p && j < out.size(); ++j) {
    counts[j] = out[j].size();
    displs[j] = flat.size();
    flat.insert(flat.end(), out[j].begin(), out[j].end());
  }
  std::vector<std::vector<T>> in(p);
  auto deliver = [](int from, const void* data, std::size_t count, void* ctx) {
    auto& result = *static_cast<std::vector<std::vector<T>>*>(ctx);
    std::vector<T>& v = result[static_cast<std::size_t>(from)];
    v.resize(count);
    if (count) std::memcpy(static_cast<void*>(v.data()), data, count * sizeof(T));
  };
  bsp_exchange(flat.data(), counts.data(), displs.data(), sizeof(T), deliver, &in);
  return in;
}

}  // namespace bspcheck::level1
