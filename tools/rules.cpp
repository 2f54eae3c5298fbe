#include "tools/rules.hpp"

namespace bspcheck::cli {

const std::vector<RuleInfo>& all_rules() {
  static const std::vector<RuleInfo> rules = {
      // errors
      {"reg-count-mismatch", "error", "every process must call bsp_push_reg the same number of times in a superstep: the k-th calls form one registration slot (BSPlib 3.1)"},
      {"reg-pop-mismatch", "error", "every process must pop the same registration slot in the same de-registration (BSPlib 3.1)"},
      {"reg-pop-unknown", "error", "bsp_pop_reg must name an address that is registered (BSPlib 3.1)"},
      {"reg-negative-size", "error", "the size of a registration must be nonnegative (BSPlib 3.1.2 (7))"},
      {"reg-not-active", "error", "bsp_push_reg takes effect at the end of the superstep; DRMA may use the area from the next superstep on (BSPlib 3.1.2 (1))"},
      {"reg-unregistered", "error", "the remote area of a put or get must be registered on the remote process (BSPlib 3.1.2 (3), 3.2.4 (1), 3.3.3 (1))"},
      {"bounds-put", "error", "a put may not write past the end of the target's registered area: offset + nbytes <= registered size (BSPlib 3.2.4 (3))"},
      {"bounds-get", "error", "a get may not read past the end of the source's registered area: offset + nbytes <= registered size (BSPlib 3.3.3 (3))"},
      {"bad-pid", "error", "process identifiers range over 0..bsp_nprocs()-1 (BSPlib 2.4)"},
      {"tagsize-mismatch", "error", "bsp_set_tagsize must be called by all processes with the same argument in the same superstep (BSPlib 4.1.2 (3))"},
      {"superstep-mismatch", "error", "all processes must pass through the same sequence of bsp_sync calls and all must execute bsp_end (BSPlib 2.1.3 (8), 2.5)"},
      {"hp-src-modified", "error", "the source of bsp_hpput/bsp_hpget may be read at any time until the end of the superstep and must not change (BSPlib 3.2, 3.3)"},
      {"hp-dst-conflict", "error", "the destination of bsp_hpput/bsp_hpget may be written at any time during the superstep; nothing else may write it (BSPlib 3.2 (3), (4))"},
      {"hp-dst-read", "error", "the destination of bsp_hpput/bsp_hpget may be written at any time until the end of the superstep; reading it before then gives undefined contents (BSPlib 3.2, 3.3)"},
      {"get-dst-early-read", "error", "the destination of bsp_get is written at the end of the superstep; reading it earlier in the same superstep sees the old contents (BSPlib 3.3)"},
      {"hpmove-stale", "error", "memory returned by bsp_hpmove is valid only until the end of the superstep (BSPlib 4.6)"},
      {"api-misuse", "error", "BSPlib primitives take nonnegative sizes and offsets and valid buffers, and are called between bsp_begin and bsp_end (BSPlib 2-4)"},
      {"abort", "error", "bsp_abort prints its message and halts the entire BSPlib program (BSPlib 2.3)"},
      {"crash", "error", "a process of the program crashed: a signal or an uncaught exception stopped it"},
      {"timeout", "error", "the program made no progress within the time limit"},
      {"expect-mismatch", "error", "the program's output differs from the expected output"},
      // warnings
      {"global-shared", "error", "each BSP process has its own variables: two processes writing one variable in a superstep see each other's writes only because bsp-check could not give them separate copies (a shared library's data, or --globals=shared)"},
      {"put-collision", "warning", "when several communications write the same bytes in one superstep, which one lands is implementation dependent (BSPlib 3, buffering)"},
      {"queue-unconsumed", "warning", "messages not moved from the queue during the superstep after they were sent are removed at the next sync (BSPlib 4)"},
      {"move-truncated", "warning", "bsp_move copies at most reception_nbytes bytes; a larger payload is truncated (BSPlib 4.5.3 (3))"},
      {"reg-site-mismatch", "warning", "the k-th bsp_push_reg of every process forms one slot, so processes must register corresponding areas in the same order (BSPlib 3.1)"},
      {"reg-order-portability", "warning", "registrations and de-registrations take effect at the next sync; the paper leaves their order within a superstep open, so a push and a pop of the same address in one superstep mean different things in different implementations (BSPlib 3.1)"},
      {"reg-leak", "warning", "registrations are removed with bsp_pop_reg; level-1 code must leave none behind (BSPlib 3.1, 6)"},
      {"level1-hygiene", "warning", "a level-1 operation removes its registrations, restores the tag size and leaves the queue empty (BSPlib 6)"},
      // across runs
      {"schedule-divergence", "error", "a deterministic program gives the same output under every schedule the BSPlib semantics allow"},
      {"replay-divergence", "error", "a replayed run makes the same choices and calls as the recorded one"},
  };
  return rules;
}

const RuleInfo* find_rule(const std::string& id) {
  for (const RuleInfo& r : all_rules())
    if (id == r.id) return &r;
  return nullptr;
}

}  // namespace bspcheck::cli
