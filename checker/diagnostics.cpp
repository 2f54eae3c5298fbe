#include "checker/diagnostics.hpp"

#include <dlfcn.h>

#include <sstream>

namespace bspcheck::checker {

const char* rule_statement(const std::string& rule) {
  static const std::map<std::string, const char*> statements = {
      {"reg-count-mismatch", "every process must call bsp_push_reg the same number of times in a superstep: the k-th calls form one registration slot (BSPlib 3.1)"},
      {"reg-pop-mismatch", "every process must pop the same registration slot in the same de-registration (BSPlib 3.1)"},
      {"reg-pop-unknown", "bsp_pop_reg must name an address that is registered (BSPlib 3.1)"},
      {"reg-negative-size", "the size of a registration must be nonnegative (BSPlib 3.1.2 (7))"},
      {"reg-not-active", "bsp_push_reg takes effect at the end of the superstep; DRMA may use the area from the next superstep on (BSPlib 3.1.2 (1))"},
      {"reg-unregistered", "the remote area of a put or get must be registered on the remote process (BSPlib 3.1.2 (3), 3.2.4 (1), 3.3.3 (1))"},
      {"bounds-put", "a put may not write past the end of the target's registered area: offset + nbytes <= registered size (BSPlib 3.2.4 (3))"},
      {"bounds-get", "a get may not read past the end of the source's registered area: offset + nbytes <= registered size (BSPlib 3.3.3 (3))"},
      {"bad-pid", "process identifiers range over 0..bsp_nprocs()-1 (BSPlib 2.4)"},
      {"tagsize-mismatch", "bsp_set_tagsize must be called by all processes with the same argument in the same superstep (BSPlib 4.1.2 (3))"},
      {"superstep-mismatch", "all processes must pass through the same sequence of bsp_sync calls and all must execute bsp_end (BSPlib 2.1.3 (8), 2.5)"},
      {"api-misuse", "BSPlib primitives take nonnegative sizes and offsets and valid buffers, and are called between bsp_begin and bsp_end (BSPlib 2-4)"},
      {"abort", "bsp_abort prints its message and halts the entire BSPlib program (BSPlib 2.3)"},
      {"crash", "a process of the program crashed: a signal or an uncaught exception stopped it"},
      {"timeout", "the program made no progress within the time limit"},
      {"global-shared", "each BSP process has its own variables: two processes writing one variable in a superstep see each other's writes only because bsp-check could not give them separate copies (a shared library's data, or --globals=shared)"},
      {"put-collision", "when several communications write the same bytes in one superstep, which one lands is implementation dependent (BSPlib 3, buffering)"},
      {"queue-unconsumed", "messages not moved from the queue during the superstep after they were sent are removed at the next sync (BSPlib 4)"},
      {"move-truncated", "bsp_move copies at most reception_nbytes bytes; a larger payload is truncated (BSPlib 4.5.3 (3))"},
      {"reg-site-mismatch", "the k-th bsp_push_reg of every process forms one slot, so processes must register corresponding areas in the same order (BSPlib 3.1)"},
      {"reg-order-portability", "registrations and de-registrations take effect at the next sync; the paper leaves their order within a superstep open, so a push and a pop of the same address in one superstep mean different things in different implementations (BSPlib 3.1)"},
      {"reg-leak", "registrations are removed with bsp_pop_reg; level-1 code must leave none behind (BSPlib 3.1, 6)"},
      {"hp-src-modified", "the source of bsp_hpput/bsp_hpget may be read at any time until the end of the superstep and must not change (BSPlib 3.2, 3.3)"},
      {"hp-dst-conflict", "the destination of bsp_hpput/bsp_hpget may be written at any time during the superstep; nothing else may write it (BSPlib 3.2 (3), (4))"},
      {"level1-hygiene", "a level-1 operation removes its registrations, restores the tag size and leaves the queue empty (BSPlib 6)"},
  };
  auto it = statements.find(rule);
  return it == statements.end() ? "" : it->second;
}

Severity rule_severity(const std::string& rule) {
  static const char* warnings[] = {"put-collision", "queue-unconsumed", "move-truncated",
                                   "reg-site-mismatch", "reg-order-portability", "reg-leak", "level1-hygiene"};
  for (const char* w : warnings)
    if (rule == w) return Severity::warning;
  return Severity::error;
}

Location Diagnostics::location(const rt::Site& site, int process, const char* call) const {
  Location l;
  l.process = process;
  l.call = call ? call : "";
  if (site.file) {
    l.file = site.file;
    l.line = site.line;
  } else if (site.pc) {
    // No __FILE__/__LINE__ (a program built against another bsp.h): name the caller's symbol.
    Dl_info info;
    if (dladdr(site.pc, &info) && info.dli_fname) {
      std::ostringstream s;
      s << (info.dli_sname ? info.dli_sname : "?") << " in " << info.dli_fname << " +0x" << std::hex
        << (reinterpret_cast<std::uintptr_t>(site.pc) - reinterpret_cast<std::uintptr_t>(info.dli_fbase));
      l.file = s.str();
    }
  }
  return l;
}

std::string Diagnostics::render(const Finding& f, const std::string& repro) {
  std::ostringstream s;
  s << "bsp-check: " << (f.severity == Severity::error ? "error" : "warning") << "[" << f.rule
    << "]: superstep " << f.superstep << ": " << f.message << "\n";
  for (const Location& l : f.locations) {
    s << "  at " << (l.file.empty() ? "<unknown>" : l.file);
    if (l.line > 0) s << ":" << l.line;
    s << " (";
    if (!l.call.empty()) s << l.call << ", ";
    s << "process " << l.process << ")\n";
  }
  const char* statement = rule_statement(f.rule);
  if (*statement) s << "  rule: " << statement << "\n";
  if (!repro.empty()) s << "  reproduce: " << repro << "\n";
  return s.str();
}

bool Diagnostics::enabled(const std::string& rule) const {
  for (const std::string& d : disabled_)
    if (d == rule) return false;
  return true;
}

bool Diagnostics::report(Finding f) {
  f.severity = rule_severity(f.rule);
  if (!enabled(f.rule) || suppressions_.matches(f)) {
    ++dropped_;
    return false;
  }
  if (f.severity == Severity::error || werror_) ++errors_;
  std::string key = f.rule;
  for (const Location& l : f.locations) key += "|" + l.file + ":" + std::to_string(l.line);
  const bool first = repeats_[key]++ == 0;
  if (out_ && first) {
    std::fputs(render(f, repro_).c_str(), out_);
    std::fflush(out_);
  }
  findings_.push_back(std::move(f));
  return true;
}

void Diagnostics::print_repeat_summary() {
  if (!out_) return;
  for (const auto& [key, n] : repeats_)
    if (n > 1)
      std::fprintf(out_, "bsp-check: note: %zu more finding(s) like [%s] not shown\n", n - 1,
                   key.c_str());
}

}  // namespace bspcheck::checker
