// cbsp_runtime.hpp: cBSP (counting BSP, shared/seeds/003, section 4.3) on the local-sync engine.
// A message is tagged with its sender's superstep; cBSP_nsync(count) of superstep s waits until
// `count` messages tagged s have arrived, then writes them and runs their handlers on the
// receiver, in a seeded order, and the process enters superstep s+1 without waiting for anyone.
// cBSP_gsync waits for every process, then delivers until nothing is pending anywhere: messages
// the handlers send during it are delivered before any process leaves (the paper: "any pending
// messages are guaranteed to have been written, and any handlers ... executed prior to exit").
// docs/cbsp.md.
#pragma once

#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/local_sync.hpp"
#include "runtime/base/site.hpp"

namespace bspcheck::rt {

class CbspRuntime : public LocalSyncClient {
 public:
  using Handler = void (*)(int src_node, void* dest_addr, int nbytes);
  explicit CbspRuntime(World& world);

  void initialize();
  void send(int node, void* dest, const void* src, int nbytes, Handler handler);
  void nsync(int count);
  void gsync();
  void before_end(int pid) override;

 private:
  struct Message {
    int src;
    long superstep;                   // the sender's, when it sent
    void* dest;                       // in the receiver's memory; null: the handler gets the buffer
    std::vector<unsigned char> data;  // copied at the send
    Handler handler;
    Site site;              // of the cBSP_send
    bool reported = false;  // already reported late: not reported again at bsp_end
    int round = 0;          // cBSP_gsync: 0, or 1 + the delivery round whose handler sent it
  };
  long tagged(int pid, long superstep) const;
  void report_late(const Message& m, int receiver, long receiver_superstep, const char* why);
  // The running process has made a cBSP call without cBSP_initialize (reported once).
  void check_initialized(const char* call);
  // True (and reported) when the running process calls `call`, a sync, from a message handler:
  // handlers run inside their receiver's sync (cBSP 4.3), so a sync there has no meaning; the
  // caller ignores it (taken, it ended a superstep the enclosing sync then counted again).
  bool sync_in_handler(const char* call, int count);
  // Writes the messages and runs their handlers on the running process (their receiver);
  // `earlier` were delivered before in the same sync (a cBSP_gsync's earlier rounds).
  void deliver(std::vector<Message>& batch, const std::vector<Message>& earlier);
  // Reports destinations of `batch` that overlap one another or one of `earlier`.
  bool check_overlaps(const std::vector<Message>& batch, const std::vector<Message>& earlier);
  // A destination that is not memory the receiver has (cbsp-dest-not-global): why, or "".
  std::string foreign_destination(int node, const void* dest) const;
  // A destination that is a global or static of the program, or a heap block of the receiver
  // `node`, too small for nbytes from dest on (cbsp-dest-overrun): what it is and how many bytes
  // it has, or "".
  std::string destination_overrun(int node, const void* dest, int nbytes) const;

  World& world_;
  LocalSync& sync_;
  std::vector<std::vector<Message>> inbox_;       // per receiver: arrived, not yet delivered
  std::vector<bool> initialized_;                 // per process: called cBSP_initialize
  std::vector<long> gsyncs_;                      // per process: cBSP_gsync calls entered
  std::vector<long> gsync_superstep_;             // per process: its superstep at its last cBSP_gsync
  std::vector<std::pair<long, int>> round_done_;  // per process: (gsync, round) it has delivered
  std::vector<int> delivering_round_;             // per process: the gsync round it delivers now, or -1
  std::vector<int> in_handler_;                   // per process: handlers of its own running now (nested)
  // A cBSP_gsync's progress, counted as the processes arrive, so that a waiting process's test is
  // one load, not a scan of every process (a chain of p handler hops is p rounds, each waking p
  // processes). The waits hold pointers: a map's and a deque's elements stay where they are.
  struct Round {
    int delivered = 0;  // processes through this round's deliveries
    bool more = false;  // messages for the next round (set by the last process through)
  };
  struct Generation {
    int entered = 0;  // processes that called this cBSP_gsync
    std::deque<Round> rounds;
  };
  std::map<long, Generation> generations_;  // by cBSP_gsync generation (1, 2, ...)
  struct SyncSite {
    Site site;
    const char* call;  // "cBSP_nsync" or "cBSP_gsync"
  };
  std::vector<std::vector<SyncSite>> sync_sites_;  // per process: the sync ending each superstep
  long gsyncs_checked_ = 0;                        // cBSP_gsync generations compared for agreement
};

}  // namespace bspcheck::rt
