// bspk_runtime.hpp: BSPk (shared/seeds/001: communicable memory, lazy barriers; Table 1) on the
// local-sync engine. Comem regions are library-owned heap memory of one process; sends and copies
// of superstep s are posted when their issuer enters its sync and land when the receiver leaves
// its sync of s (stores, sends and local copies first, then fetches are served, reading after the
// stores). A sync is a barrier unless the process announced its messages (bspk_expect,
// bspk_will_send): then it is lazy and the process leaves as soon as its announced messages are
// in. Names of regions and lookups: engine/systems/bspk_names.hpp. docs/bspk.md.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "engine/systems/bspk_names.hpp"
#include "engine/core/local_sync.hpp"
#include "runtime/base/site.hpp"

namespace bspcheck::rt {

struct ComemPtr {
  int owner = -1;  // -1: null; -2: a lookup not decided when it was made (region = its Lookup)
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
  void before_end(int pid) override;
  // For trace records: the process p points into (a lookup's if it is decided by now; -1 if
  // not), the elements and element size of the region p points into (0 if none). Report nothing.
  int owner_of(ComemPtr p);
  long elements(ComemPtr p);
  long element_bytes(ComemPtr p);

 private:
  struct Region {
    long n = 0, size = 0;
    std::vector<unsigned char> data;
    bool freed = false;
    Site free_site;       // of its bspk_free
    int sender = -1;      // a region bspk_recv made: who sent it
    Site site;            // of its bspk_malloc (or the bspk_send that made it)
    int allocation = -1;  // a named region: its entry in names_
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
    bool free_reported = false;  // a freed region it uses was reported
    bool dud = false;            // reported when posted: a message without effect
  };
  struct Written {  // data written into a process's region at its sync
    ComemPtr dst;
    long n;  // elements
    std::vector<unsigned char> data;
  };
  enum class Announce { none, expect, will_send };
  struct Left {  // how a process took the messages of one of its supersteps
    bool taken = false;
    Site site;           // its bspk_sync
    long announced = 0;  // the messages it waited for
    long received = 0;   // the messages of the superstep it took
  };
  struct PerProcess {
    std::vector<Region> regions;
    std::vector<Op> issued;          // this superstep's sends and copies, posted at the sync
    std::vector<Op> inbox;           // posted to this process, not yet landed
    std::vector<Op> local_copies;    // this superstep's copies with both sides local
    std::vector<ComemPtr> received;  // this superstep's messages (sent in the previous one)
    std::size_t next_recv = 0;
    std::vector<Written> fetched;  // served fetches, written when the process leaves its sync
    long fetches_out = 0;          // fetches posted and not yet served
    Announce announce = Announce::none;
    long expected = 0;      // bspk_expect
    std::vector<int> will;  // bspk_will_send
    Site will_site;
    long entered_sync = -1;  // the superstep of the last bspk_sync it entered
    bool ended = false;      // it has reached bsp_end
    std::vector<Left> left;  // per superstep it has left
  };
  // Where a finding about a use of comem is located: a call of some process, in its superstep.
  struct Use {
    const char* what;  // "bspk_copy (store)"
    Site site;
    int pid;
    const char* call;
    long superstep;
  };
  enum class Resolved { pending, bound, none };

  PerProcess& me();            // the running process's
  Use here(const char* what);  // the running process's current call
  bool passed(int pid, long s) const;
  // A decided lookup becomes the pointer it found (p unchanged while it is not decided).
  void bind(ComemPtr& p);
  // What a lookup pointer names for a use in superstep `use_superstep`: a lookup found unknown
  // may still name a region allocated by then (it was reported once, where it was made).
  Resolved resolve(ComemPtr& p, long use_superstep);
  // The region p points into, or nullptr after reporting why not (at `use`). p must not be an
  // undecided lookup. `freed` receives a freed region instead of reporting it, when given.
  Region* region(const ComemPtr& p, const Use& use, Region** freed = nullptr);
  bool in_bounds(const Region& r, long elem, long n, const Use& use);
  // Checks the local side of a send or copy at its call; false: no region at all (not issued).
  bool check_local(Op& op, const ComemPtr& p, long n, const Use& use);
  void report_at(Rule rule, std::string message, const Use& use, std::vector<int> processes = {},
                 std::vector<std::tuple<Site, int, const char*>> more = {});
  void report_free_use(const Region& r, const ComemPtr& p, const Use& use);
  // Posts an op at its issuer's sync; returns the process it is a message to (-1: none).
  int post(Op op);
  long tagged(int pid, long s) const;
  // Do two of these (pointer, elements) ranges share an element of one region?
  static bool overlapping(const std::vector<std::pair<ComemPtr, long>>& ranges);
  static bool overlapping(const std::vector<std::pair<ComemPtr, long>>& a,
                          const std::vector<std::pair<ComemPtr, long>>& b);
  long expected_now(int pid, long s) const;
  // The running process announces again (`call`) in its superstep: its bspk_will_send, if it
  // made one, no longer counts (reported).
  void retract_will_send(const char* call);
  void report_count(const std::string& msg, std::vector<int> pids, long s,
                    const std::vector<std::tuple<Site, int, const char*>>& sites);
  // Reports the lookups decided unknown and the double allocations decided since the last call.
  void report_names();
  static const char* call_of(OpKind kind) { return kind == OpKind::send ? "bspk_send" : "bspk_copy"; }

  // bspk_sync's phases, in their order (bspk_sync.cpp).
  struct Landing {
    std::vector<ComemPtr> received;  // this superstep's messages, for bspk_recv in the next
    std::vector<Written> landed;     // what stores and local copies wrote, for the fetch landing
    std::vector<Op> fetch_requests;  // fetches others asked of this process
  };
  void announce_and_post(int pid, long s);
  void await_expected(int pid, long s);
  std::vector<Op> take_arrived(int pid, long s, const Site& site);
  void warn_copy_order(int pid, long s, const std::vector<Op>& mine);
  Landing land_in_seeded_order(int pid, std::vector<Op>& mine);
  void serve_fetches(std::vector<Op>& fetch_requests);
  void land_fetches(int pid, std::vector<Written> landed);

  World& world_;
  LocalSync& sync_;
  std::vector<PerProcess> procs_;
  ComemNames names_;
  std::map<long, long> entered_;                // superstep -> processes that posted its sends and copies
  std::map<long, Announce> announce_of_;        // superstep -> the first announcement kind seen
  std::map<long, std::vector<long>> will_sum_;  // superstep -> per receiver: sum of will_send
  std::map<long, long> will_calls_;             // superstep -> processes that called will_send
};

}  // namespace bspcheck::rt
