// cBSP on the local-sync engine (docs/cbsp.md): cBSP_gsync's delivery of what handlers send
// while it runs, destinations that name nothing on the receiver, and how findings are located.
// Each test runs over many seeds: a finding in some seeds only is a failure.
#include <cbsp.h>

#include <cstdlib>
#include <utility>
#include <vector>

#include "runtime/isolation/heap_owners.hpp"
#include "unit_helpers.hpp"

using unit::find;
using unit::run;
using unit::seeds;

namespace {

// A broadcast down a binary tree whose handlers forward, ended by cBSP_gsync: the paper
// guarantees pending messages written and handlers run "prior to exit from cBSP_gsync", so
// every process has the value after it, in every schedule.
std::vector<double>* g_value = nullptr;  // per process (bspcheck::run shares the heap)

void forward(int, void* dest, int) {
  const int me = bsp_pid(), p = bsp_nprocs();
  for (int child = 2 * me + 1; child <= 2 * me + 2 && child < p; ++child)
    cBSP_send(child, &(*g_value)[static_cast<std::size_t>(child)], dest, sizeof(double), forward);
}

TEST(Cbsp, GsyncDeliversWhatItsHandlersSend) {
  for (int p = 1; p <= 8; ++p)
    for (auto seed : seeds(10)) {
      std::vector<double> value(static_cast<std::size_t>(p), 0.0);
      g_value = &value;
      auto r = run(p, seed, [&] {
        bsp_begin(p);
        cBSP_initialize();
        const int me = bsp_pid();
        if (me == 0) {
          value[0] = 3.25;
          for (int c = 1; c <= 2 && c < p; ++c) cBSP_send(c, &value[static_cast<std::size_t>(c)], &value[0], sizeof(double), forward);
        }
        cBSP_gsync();
        if (value[static_cast<std::size_t>(me)] != 3.25) ADD_FAILURE() << "process " << me << " left the gsync without the value";
        cBSP_gsync();
        bsp_end();
      });
      EXPECT_TRUE(r.findings.empty()) << r.summary();
    }
}

TEST(Cbsp, SyncMismatchNamesEveryProcessesGsync) {
  for (auto seed : seeds(10)) {
    auto r = run(3, seed, [] {
      bsp_begin(3);
      cBSP_initialize();
      if (bsp_pid() == 0) cBSP_nsync(0);
      cBSP_gsync();
      bsp_end();
    });
    const bspcheck::Finding* f = find(r, "cbsp-sync-mismatch");
    ASSERT_NE(f, nullptr) << r.summary();
    ASSERT_EQ(f->locations.size(), 3u);
    for (int q = 0; q < 3; ++q) {
      EXPECT_EQ(f->locations[static_cast<std::size_t>(q)].process, q);
      EXPECT_EQ(f->locations[static_cast<std::size_t>(q)].call, "cBSP_gsync");
    }
    EXPECT_EQ(f->superstep, 0);  // the lowest: not whichever process came through first
  }
}

TEST(Cbsp, DestinationOnTheSendersStackIsReportedAndNotWritten) {
  for (auto seed : seeds(10)) {
    std::vector<int> after(2, 0);
    auto r = run(2, seed, [&] {
      bsp_begin(2);
      cBSP_initialize();
      const int me = bsp_pid();
      int mine = 7;  // on this process's stack
      const int v = 100 + me;
      cBSP_send(1 - me, &mine, &v, sizeof v, nullptr);
      cBSP_nsync(1);  // still counted
      after[static_cast<std::size_t>(me)] = mine;
      bsp_end();
    });
    EXPECT_EQ(r.count("cbsp-dest-not-global"), 2u) << r.summary();
    EXPECT_EQ(after, (std::vector<int>{7, 7}));  // the sender's memory is left alone
  }
}

TEST(Cbsp, DestinationOnTheReceiversOwnStackIsAccepted) {
  for (auto seed : seeds(10)) {
    std::vector<int*> where(2, nullptr);
    std::vector<int> got(2, 0);
    auto r = run(2, seed, [&] {
      bsp_begin(2);
      cBSP_initialize();
      const int me = bsp_pid();
      int slot = -1;
      where[static_cast<std::size_t>(me)] = &slot;  // as if told to the other in a message
      cBSP_gsync();
      const int v = 100 + me;
      cBSP_send(1 - me, where[static_cast<std::size_t>(1 - me)], &v, sizeof v, nullptr);
      cBSP_nsync(1);
      got[static_cast<std::size_t>(me)] = slot;
      cBSP_gsync();  // nobody leaves while the other may still write its slot
      bsp_end();
    });
    EXPECT_TRUE(r.findings.empty()) << r.summary();
    EXPECT_EQ(got, (std::vector<int>{101, 100}));
  }
}

TEST(Cbsp, CallBeforeInitializeIsMisuseOncePerProcess) {
  static int x;
  auto r = run(2, 1, [] {
    bsp_begin(2);
    const int me = bsp_pid();
    cBSP_send(1 - me, &x, &me, sizeof me, nullptr);
    cBSP_nsync(1);
    bsp_end();
  });
  EXPECT_EQ(r.count("api-misuse"), 2u) << r.summary();
}

// A handler that syncs: process 0's handler calls cBSP_nsync(0) and cBSP_gsync. Taken, the nested
// nsync ended a superstep that the enclosing sync then counted again, so the processes' supersteps
// at the next cBSP_gsync differed without a finding. Each call is api-misuse, ignored: every
// process then meets the gsync in the same superstep, and no other finding follows.
void nested_sync_handler(int, void*, int) {
  if (bsp_pid() == 0) {
    cBSP_nsync(0);
    cBSP_gsync();
  }
}

TEST(Cbsp, SyncInAHandlerIsMisuseAndIgnored) {
  for (int p = 2; p <= 3; ++p)
    for (auto seed : seeds(5)) {
      auto r = run(p, seed, [p] {
        bsp_begin(p);
        cBSP_initialize();
        const int me = bsp_pid();
        if (me != 0) cBSP_send(0, nullptr, &me, sizeof me, nested_sync_handler);  // the handler gets the buffer
        cBSP_nsync(me == 0 ? p - 1 : 0);
        cBSP_gsync();
        bsp_end();
      });
      EXPECT_EQ(r.count("api-misuse"), 2u * static_cast<unsigned>(p - 1)) << r.summary();
      EXPECT_EQ(r.findings.size(), r.count("api-misuse")) << r.summary();
      const bspcheck::Finding* f = find(r, "api-misuse");
      ASSERT_NE(f, nullptr) << r.summary();
      EXPECT_NE(f->message.find("in a message handler"), std::string::npos) << f->message;
    }
}

TEST(Cbsp, FindingsCarryTheProcessesOwnSuperstep) {
  auto r = run(2, 1, [] {
    bsp_begin(2);
    cBSP_initialize();
    cBSP_nsync(0);
    cBSP_nsync(0);
    static int x;
    const int v = 1;
    if (bsp_pid() == 0) cBSP_send(5, &x, &v, sizeof v, nullptr);
    cBSP_gsync();
    bsp_end();
  });
  const bspcheck::Finding* f = find(r, "bad-pid");
  ASSERT_NE(f, nullptr) << r.summary();
  EXPECT_EQ(f->superstep, 2);
}

// cBSP_nsync waited for all `count` messages before delivering any, so a message that a handler
// of an arrived one causes (a reply that comes back to the requester, a handler's message to its
// own process) could never be counted: a false cbsp-count-excess deadlock. The paper's nsync
// waits "until count messages have been received and written", with handlers run at the sync;
// when nothing else can go on, what has arrived is delivered first.
std::vector<int>* g_slots = nullptr;  // per process: 0 request, 1 reply, 2 acknowledgement

void on_reply(int src, void* dest, int) {
  const int v = *static_cast<int*>(dest) + 1;
  cBSP_send(src, &(*g_slots)[3u * static_cast<unsigned>(src) + 2], &v, sizeof v, nullptr);
}
void on_request(int src, void* dest, int) {
  const int v = *static_cast<int*>(dest) + 1;
  cBSP_send(src, &(*g_slots)[3u * static_cast<unsigned>(src) + 1], &v, sizeof v, on_reply);
}

TEST(Cbsp, NsyncCountsTheMessagesItsOwnHandlersCause) {
  for (int p = 2; p <= 4; ++p)
    for (auto seed : seeds(10)) {
      std::vector<int> slots(3u * static_cast<unsigned>(p), 0);
      g_slots = &slots;
      auto r = run(p, seed, [&] {
        bsp_begin(p);
        cBSP_initialize();
        const int me = bsp_pid(), v = 1;
        // Process 1 asks 0; 0's handler replies; 1's handler acknowledges to 0: 0 receives the
        // request and the acknowledgement, 1 the reply, all in superstep 0.
        if (me == 1) cBSP_send(0, &slots[0], &v, sizeof v, on_request);
        cBSP_nsync(me == 0 ? 2 : me == 1 ? 1 : 0);
        cBSP_gsync();
        bsp_end();
      });
      EXPECT_TRUE(r.findings.empty()) << "p=" << p << " " << r.summary();
      EXPECT_EQ(slots[0], 1);
      EXPECT_EQ(slots[3 + 1], 2);
      EXPECT_EQ(slots[2], 3);
    }
  // p = 1: a handler's message to its own process, counted by the same nsync.
  for (auto seed : seeds(5)) {
    std::vector<int> slots(3, 0);
    g_slots = &slots;
    auto r = run(1, seed, [&] {
      bsp_begin(1);
      cBSP_initialize();
      const int v = 1;
      cBSP_send(0, &slots[0], &v, sizeof v, on_request);  // the reply and its acknowledgement come back
      cBSP_nsync(3);
      bsp_end();
    });
    EXPECT_TRUE(r.findings.empty()) << r.summary();
    EXPECT_EQ(slots, (std::vector<int>{1, 2, 3}));
  }
}

// Overlapping destinations were compared only with their neighbour in address order: a long one
// overlapping two that follow it (and not each other) was reported with the first only.
TEST(Cbsp, EveryOverlappingPairOfDestinationsIsReported) {
  for (auto seed : seeds(10)) {
    std::vector<int> buf(4, 0);
    auto r = run(4, seed, [&] {
      bsp_begin(4);
      cBSP_initialize();
      const int me = bsp_pid();
      const int four[4] = {me, me, me, me};
      if (me == 1) cBSP_send(0, &buf[0], four, sizeof four, nullptr);  // 0..3
      if (me == 2) cBSP_send(0, &buf[1], four, sizeof(int), nullptr);  // 1
      if (me == 3) cBSP_send(0, &buf[2], four, sizeof(int), nullptr);  // 2
      cBSP_nsync(me == 0 ? 3 : 0);
      cBSP_gsync();
      bsp_end();
    });
    EXPECT_EQ(r.count("cbsp-dst-overlap"), 2u) << r.summary();
    EXPECT_EQ(r.findings.size(), 2u) << r.summary();
  }
}

// A message longer than the receiver's variable at its destination was written past the
// variable's end, over the receiver's next globals, without a word. It is cbsp-dest-overrun, at
// the cBSP_send, and not written; a send into the middle of a variable that fits is fine.
TEST(Cbsp, DestinationTooSmallForTheMessageIsReportedAndNotWritten) {
  static long small[2];
  for (auto seed : seeds(5)) {
    small[0] = small[1] = -1;
    int line = 0;
    auto r = run(2, seed, [&] {
      bsp_begin(2);
      cBSP_initialize();
      const int me = bsp_pid();
      const long four[4] = {me, me, me, me};
      line = __LINE__ + 1;
      bspcheck_set_site(__FILE__, __LINE__), cBSP_send(1 - me, small, four, sizeof four, nullptr);  // 32 bytes into 16
      cBSP_nsync(1);
      if (me == 0) cBSP_send(1, &small[1], four, sizeof(long), nullptr);  // the last 8 bytes: fits
      cBSP_nsync(me == 1 ? 1 : 0);
      cBSP_gsync();
      bsp_end();
    });
    EXPECT_EQ(r.count("cbsp-dest-overrun"), 2u) << r.summary();
    EXPECT_EQ(r.findings.size(), 2u) << r.summary();
    const bspcheck::Finding* f = find(r, "cbsp-dest-overrun");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->locations.at(0).line, line);
    EXPECT_NE(f->message.find("16 bytes"), std::string::npos) << f->message;
    EXPECT_EQ(small[0], -1);
    EXPECT_EQ(small[1], 0);
  }
}

}  // namespace

// runtime/isolation/heap_owners.hpp: every live block a process allocates is known as that process's, by
// any address inside it, with the size it was allocated with; a freed block is no longer known.
// Thousands of blocks, freed in a random order, exercise the table's growth and its deletions
// (an entry shifted back wrongly is then lost, or found for a block that is gone).
TEST(Cbsp, HeapBlocksAreKnownAsTheirAllocatorsUntilFreed) {
  for (int p : {1, 3})
    for (auto seed : seeds(2)) {
      auto r = run(p, seed, [&] {
        bsp_begin(p);
        cBSP_initialize();
        const int me = bsp_pid();
        std::vector<std::pair<char*, std::size_t>> live;
        std::size_t wrong = 0;
        std::uint64_t state = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(me + 1);
        auto next = [&state] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
        for (int round = 0; round < 3; ++round) {
          for (int i = 0; i < 3000; ++i) {
            const std::size_t n = 1 + next() % (i % 100 ? 200 : 100000);  // a few larger than the probes reach
            auto* b = static_cast<char*>((next() & 1) ? std::malloc(n) : std::calloc(n, 1));
            live.emplace_back(b, n);
          }
          for (int i = 0; i < 300; ++i) {  // some grow or move
            auto& [b, n] = live[next() % live.size()];
            n += 1 + next() % 300;
            b = static_cast<char*>(std::realloc(b, n));
          }
          for (std::size_t i = 0; i < live.size();) {  // about half are freed
            if (next() & 1) {
              const volatile std::uintptr_t at = reinterpret_cast<std::uintptr_t>(live[i].first);  // (not a pointer: it is freed)
              std::free(live[i].first);
              bspcheck::rt::HeapBlock block;  // gone at once (nothing was allocated since)
              if (bspcheck::rt::heap_block_of(reinterpret_cast<const void*>(at), block) && block.lo == at) ++wrong;
              live[i] = live.back();
              live.pop_back();
            } else {
              ++i;
            }
          }
          bsp_sync();  // other processes allocate in between
        }
        for (const auto& [b, n] : live) {
          bspcheck::rt::HeapBlock block;
          const char* inside = b + next() % n;
          if (!bspcheck::rt::heap_block_of(inside, block) || block.owner != me || block.lo != reinterpret_cast<std::uintptr_t>(b) ||
              block.size != n)
            ++wrong;
        }
        if (wrong) ADD_FAILURE() << "process " << me << ": " << wrong << " blocks misknown";
        for (const auto& l : live) std::free(l.first);
        bsp_end();
      });
      EXPECT_TRUE(r.findings.empty()) << "p=" << p << " seed=" << seed;
    }
}
