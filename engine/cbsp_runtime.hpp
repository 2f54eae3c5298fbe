// cbsp_runtime.hpp: cBSP (counting BSP, shared/seeds/003, section 4.3) on the local-sync engine.
// A message is tagged with its sender's superstep; cBSP_nsync(count) of superstep s waits until
// `count` messages tagged s have arrived, then writes them and runs their handlers on the
// receiver, in a seeded order, and the process enters superstep s+1 without waiting for anyone.
// cBSP_gsync waits for every process and delivers everything sent before it. docs/cbsp.md.
#pragma once

#include <vector>

#include "engine/local_sync.hpp"
#include "runtime/site.hpp"

namespace bspcheck::rt {

class CbspRuntime : public LocalSyncClient {
 public:
  using Handler = void (*)(int src_node, void* dest_addr, int nbytes);
  explicit CbspRuntime(World& world);

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
    Site site;                        // of the cBSP_send
    bool reported = false;            // already reported late: not reported again at bsp_end
  };
  long tagged(int pid, long superstep) const;
  void report_late(const Message& m, int receiver, long receiver_superstep, const char* why);
  // Writes the messages and runs their handlers on the running process (their receiver).
  void deliver(std::vector<Message> batch);
  bool check_overlaps(const std::vector<Message>& batch);  // true: some destinations overlap

  World& world_;
  LocalSync& sync_;
  std::vector<std::vector<Message>> inbox_;  // per receiver: arrived, not yet delivered
  std::vector<long> gsyncs_;                 // per process: cBSP_gsync calls entered
  std::vector<long> gsync_superstep_;        // per process: its superstep at its last cBSP_gsync
  std::vector<std::vector<Site>> sync_sites_;  // per process: the site of the sync ending each superstep
  long gsyncs_checked_ = 0;                  // cBSP_gsync generations compared for agreement
};

}  // namespace bspcheck::rt
