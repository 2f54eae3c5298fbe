// drma_buffer.hpp: the mechanics of buffered DRMA (BSPlib 3.2, 3.3). A bsp_put's source is
// copied at the call and written at the barrier; a bsp_get's source is read at the barrier,
// after every process has stopped computing, and written to its destination before any put
// data (gets before puts); within each group the scheduler draws the order, so that where writes
// overlap the seed picks the winner. It checks nothing: World resolves and checks each call, the
// checker looks at the writes (writes()) before they land.
#pragma once

#include <cstdint>
#include <vector>

#include "checker/checker.hpp"
#include "runtime/base/byte_arena.hpp"
#include "runtime/base/pod_vector.hpp"
#include "runtime/scheduling/scheduler.hpp"
#include "runtime/base/site.hpp"

namespace bspcheck::rt {

class DrmaBuffer {
 public:
  // A put: the bytes of src are copied now; dst (already resolved) is written at land().
  void put(void* dst, const void* src, std::uint32_t nbytes, int writer, int owner, const Site& site, const char* call);
  // A get: src (on the remote process) is read at read_get_sources(), dst written at land().
  void get(const void* src, void* dst, std::uint32_t nbytes, int caller, int remote, const Site& site);

  // The barrier, in order: read every get's source; the checker sees writes(); land().
  void read_get_sources();
  // Every write of the superstep, gets first, as the checker sees them (after read_get_sources;
  // valid until land()).
  checker::WriteSet writes() const {
    return {{get_writes_.data(), get_writes_.size()}, {puts_.data(), puts_.size()}, data_.at(0)};
  }
  // Writes the destinations: get data first, then put data, each group in an order drawn from
  // sched (unless it explores and the order cannot be seen); empties the buffer.
  void land(Scheduler& sched);

  bool empty() const { return puts_.empty() && gets_.empty() && get_writes_.empty(); }

 private:
  using Write = checker::BufferedWrite;  // its bytes at offset `data` of data_
  struct PendingGet {
    const void* src;  // on the remote process
    void* dst;        // on the caller
    std::uint32_t nbytes;
    int caller;
    int remote;
    Site site;
  };
  // Can the order of these writes be seen: do two of them overlap with different bytes?
  bool can_collide(const PodVector<Write>& writes) const;
  void write_all(PodVector<Write>& writes, Scheduler& sched);
  std::vector<std::uint32_t> order_;  // write_all's landing order (indices into its writes)

  ByteArena data_;               // put payloads copied at the call, get data at the barrier
  PodVector<Write> puts_;        // written at the barrier after all gets
  PodVector<Write> get_writes_;  // gets, once their sources have been read
  PodVector<PendingGet> gets_;   // their sources read at the barrier
};

}  // namespace bspcheck::rt
