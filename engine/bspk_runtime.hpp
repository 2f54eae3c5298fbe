// bspk_runtime.hpp: BSPk (shared/seeds/001: communicable memory, lazy barriers; Table 1) on the
// local-sync engine. Comem regions are library-owned heap memory of one process; sends and copies
// of superstep s are posted when their issuer enters its sync and land when the receiver leaves
// its sync of s (stores and sends first, then fetches are served, reading after the stores). A
// sync is a barrier unless the process announced its messages (bspk_expect, bspk_will_send): then
// it is lazy and the process leaves as soon as its announced messages are in. docs/bspk.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/local_sync.hpp"
#include "runtime/site.hpp"

namespace bspcheck::rt {

struct ComemPtr {
  int owner = -1;   // -1: null; -2: an unresolved lookup (region = its index in lookups_)
  int region = -1;
  long elem = 0;
};

class BspkRuntime : public LocalSyncClient {
 public:
  explicit BspkRuntime(World& world);

  ComemPtr malloc(const char* name, int idx, long n, long size);
  ComemPtr lookup(const char* name, int idx);
  void free(ComemPtr p);
  void* elem_ptr(ComemPtr p);
  ComemPtr incr(ComemPtr p, long amount);
  void sync();
  void expect(int nmsgs);
  void will_send(const int* per_pid);
  void send(int dest, ComemPtr p, long n);
  ComemPtr recv();
  int sender_id(ComemPtr p);
  void copy(ComemPtr dst, ComemPtr src, long n);
  // For trace records: the process p points into (a lookup resolved if its name is allocated by
  // now; -1 if not), the elements and element size of the region p points into (0 if none; not
  // for unresolved lookups). Report nothing.
  int owner_of(ComemPtr p) const;
  long elements(ComemPtr p) const;
  long element_bytes(ComemPtr p) const;

 private:
  struct Region {
    std::string name;  // empty: unnamed
    int idx = 0;
    long n = 0, size = 0;
    std::vector<unsigned char> data;
    bool freed = false;
    int sender = -1;   // a region bspk_recv made: who sent it
    Site site;         // of its bspk_malloc
  };
  struct Lookup {
    std::string name;
    int idx;
    Site site;
  };
  enum class OpKind { send, store, fetch, local_copy };
  struct Op {  // a send or copy issued in a superstep, posted at its issuer's sync
    OpKind kind;
    int issuer;
    long superstep;
    ComemPtr dst, src;
    long n;
    int dest_pid;                     // send: the receiver
    std::vector<unsigned char> data;  // sends and stores: read at the issuer's sync
    Site site;
  };
  struct Fetched {
    ComemPtr dst;
    long n;  // elements
    std::vector<unsigned char> data;
  };
  enum class Announce { none, expect, will_send };
  struct PerProcess {
    std::vector<Region> regions;
    std::vector<Op> issued;         // this superstep's sends and copies, posted at the sync
    std::vector<Op> inbox;          // posted to this process, not yet landed
    std::vector<Op> local_copies;   // this superstep's copies with both sides local
    std::vector<ComemPtr> received; // this superstep's messages (sent in the previous one)
    std::size_t next_recv = 0;
    std::vector<Fetched> fetched;   // served fetches, written when the process leaves its sync
    long fetches_out = 0;           // fetches posted and not yet served
    Announce announce = Announce::none;
    long expected = 0;              // bspk_expect
    std::vector<int> will;          // bspk_will_send
  };

  PerProcess& me();  // the running process's
  // The region p points into (a lookup resolved now), or nullptr after reporting why not.
  Region* region(ComemPtr& p, const char* what);
  bool in_bounds(const Region& r, long elem, long n, const char* what);
  void post(Op op);
  long tagged(int pid, long s) const;
  // Do two of these (pointer, elements) ranges share an element of one region?
  static bool overlapping(const std::vector<std::pair<ComemPtr, long>>& ranges);
  long expected_now(int pid, long s) const;
  void report_count(const std::string& msg, std::vector<int> pids, long s, const std::vector<Site>& sites);

  World& world_;
  LocalSync& sync_;
  std::vector<PerProcess> procs_;
  std::vector<Lookup> lookups_;
  std::map<std::pair<std::string, int>, ComemPtr> names_;
  std::map<long, long> at_sync_;              // superstep -> processes that reached its sync
  std::map<long, long> entered_;              // superstep -> processes that entered its sync
  std::map<long, Announce> announce_of_;      // superstep -> the first announcement kind seen
  std::map<long, std::vector<long>> will_sum_;  // superstep -> per receiver: sum of will_send
  std::map<long, long> will_calls_;           // superstep -> processes that called will_send
};

}  // namespace bspcheck::rt
