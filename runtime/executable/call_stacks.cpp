#include "runtime/executable/call_stacks.hpp"

#include <dlfcn.h>
#include <unwind.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <unordered_map>

#include "runtime/base/file_pattern.hpp"
#include "runtime/base/symbol_names.hpp"
#include "runtime/executable/symbolise.hpp"

namespace bspcheck::rt {

namespace {

// Everything here runs on the world's thread (the primitives and the findings), like the rest of
// the runtime: no locks.
std::vector<std::string> g_patterns;

// Verdicts by site file (pointer: one literal per translation unit).
std::unordered_map<const char*, bool> g_verdicts;

// Interned stacks of return addresses; id k is g_stacks[k - 1].
std::vector<std::vector<std::uintptr_t>> g_stacks;
std::unordered_map<std::string, std::uint32_t> g_stack_ids;
std::unordered_map<std::uint32_t, SymbolisedStack> g_symbolised;

constexpr int kMaxFrames = 8;        // kept from the wrapper's call: wrappers nest a few deep at most
constexpr int kMaxAllocFrames = 24;  // kept from operator new: the standard library's layers first

bool has_header_extension(const std::string& file) {
  const std::size_t slash = file.rfind('/');
  const std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
  const std::size_t dot = base.rfind('.');
  if (dot == std::string::npos) return !base.empty();  // <vector>, <functional>
  static constexpr const char* kHeaders[] = {"h", "hh", "hpp", "hxx", "h++", "inl", "ipp", "tcc", "tpp"};
  const std::string ext = base.substr(dot + 1);
  for (const char* h : kHeaders)
    if (ext == h) return true;
  return false;
}

bool wrapper_site(const Site& site) {
  // A call without a bsp.h site (a program built against another bsp.h) is not judged here: its
  // file would need the debug information of every loaded object read at the program's first
  // call (about a second) in every run. Its finding names the line the return address is on.
  if (!site.file) return false;
  const auto it = g_verdicts.find(site.file);
  if (it != g_verdicts.end()) return it->second;
  const bool wrapper = is_wrapper_file(site.file);
  g_verdicts.emplace(site.file, wrapper);
  return wrapper;
}

struct Unwinding {
  std::uintptr_t from = 0;  // the wrapper's return address: frames start there (0: skip `skip`)
  int skip = 0;
  bool from_signal = false;    // frames start at the one a signal interrupted
  bool trapped_after = false;  // ...after its instruction ran (a watchpoint's trap), not at it
  int limit = kMaxFrames;
  std::array<std::uintptr_t, kMaxAllocFrames> ips{};
  std::array<std::uintptr_t, kMaxAllocFrames> cfas{};  // each frame's canonical frame address
  int n = 0;
};

_Unwind_Reason_Code collect(_Unwind_Context* ctx, void* data) {
  auto* u = static_cast<Unwinding*>(data);
  int interrupted = 0;  // a signal interrupted this frame: its IP is the faulting instruction's
  std::uintptr_t ip = _Unwind_GetIPInfo(ctx, &interrupted);
  if (u->n == 0) {  // the runtime's own frames (and the signal's) are not kept
    if (u->from ? ip != u->from : u->from_signal ? !interrupted : u->skip-- > 0) return _URC_NO_REASON;
  }
  // Kept as a return address is (symbolise() looks one byte before): a fault's IP is the
  // instruction's own, a trap's the next one's, which already is.
  if (interrupted && !u->trapped_after) ip += 1;
  u->cfas[static_cast<std::size_t>(u->n)] = _Unwind_GetCFA(ctx);
  u->ips[static_cast<std::size_t>(u->n++)] = ip;
  return u->n == u->limit ? _URC_END_OF_STACK : _URC_NO_REASON;
}

// The last failed allocation's stack, kept without allocating (the handler runs when memory is
// short), interned when the finding asks for it. Per thread: operator new's handler is the whole
// program's, and a thread the program made must not leave its failure to the world's thread.
thread_local Unwinding g_failed_allocation;
thread_local bool g_failed_allocation_noted = false;

void on_failed_allocation() {
  thread_local bool inside = false;  // unwinding itself failed to allocate: just fail
  if (!inside) {
    inside = true;
    g_failed_allocation = Unwinding{};
    g_failed_allocation.skip = 1;  // this handler
    g_failed_allocation.limit = kMaxAllocFrames;
    _Unwind_Backtrace(collect, &g_failed_allocation);
    g_failed_allocation_noted = true;
    inside = false;
  }
  throw std::bad_alloc();
}

// The last throw's stack, kept as the failed allocation's is: per thread, without allocating.
thread_local Unwinding g_last_throw;
thread_local const void* g_last_throw_object = nullptr;
const void* g_ignored_throw_type = nullptr;

// Frames of system libraries and of the runtime are never the program's line.
const void* runtime_base() {
  static const void* const base = [] {
    Dl_info self;
    return dladdr(reinterpret_cast<void*>(&runtime_base), &self) ? self.dli_fbase : nullptr;
  }();
  return base;
}

bool in_runtime(const Dl_info& info) { return info.dli_fbase && info.dli_fbase == runtime_base(); }

bool in_runtime(std::uintptr_t ip) {
  Dl_info info;
  return dladdr(reinterpret_cast<void*>(ip), &info) && in_runtime(info);
}

bool in_program_code(std::uintptr_t ip) {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void*>(ip), &info) || !info.dli_fname) return true;
  if (in_runtime(info)) return false;
  const std::string object = info.dli_fname;
  for (const char* system : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/local/lib/"})
    if (object.rfind(system, 0) == 0) return false;
  return true;
}

// Unwinding costs about a microsecond, and a wrapper is usually called in a loop from the same
// line. So the last stacks of each wrapper call site are kept with where each return address
// was found: on x86-64, the word below the canonical frame address that _Unwind_GetCFA gives
// with a frame's IP (its callee's frame) is that IP, the return address. A call at the same site
// whose stack holds the same return addresses at the same places (all shifted alike, as on
// another process's stack) has the same stack: checking that reads a few words.
struct KnownStack {
  std::uint32_t id = 0;           // the interned stack (a wrapper's; a throw's is interned when taken)
  int n = 0;                      // 0: an empty way
  int checked = 0;                // the first `checked` frames' slots are compared (see remember)
  std::ptrdiff_t first_slot = 0;  // slots[0] (the first return address) - our frame
  std::array<std::uintptr_t, kMaxAllocFrames> slots{};  // slots[i] holds ips[i]
  std::array<std::uintptr_t, kMaxAllocFrames> ips{};
};
constexpr std::size_t kKnownPerSite = 4;
struct KnownStacks {
  std::array<KnownStack, kKnownPerSite> ways{};
  std::size_t next = 0;  // replaced round-robin
};
std::unordered_map<const void*, KnownStacks> g_known;
thread_local KnownStacks g_known_throws;  // the last few throws' stacks (no allocation: see note_throw)

#if defined(__x86_64__)
constexpr bool kReturnSlotBelowCfa = true;
#else
constexpr bool kReturnSlotBelowCfa = false;  // elsewhere: unwind every time
#endif

// Reads the stack words where a known stack kept its return addresses (live frames of the calling
// process, above this one), so not the sanitizer's business. Reads a slot only after the one
// below it held its return address, so only frames that are there.
__attribute__((no_sanitize_address)) const KnownStack* known_stack(const KnownStacks& known, std::uintptr_t frame) {
  if (!kReturnSlotBelowCfa) return nullptr;
  for (const KnownStack& k : known.ways) {
    if (k.n == 0) continue;
    const std::uintptr_t shift = frame + static_cast<std::uintptr_t>(k.first_slot) - k.slots[0];
    bool same = true;
    for (std::size_t i = 0; same && i < static_cast<std::size_t>(k.checked); ++i)
      same = *reinterpret_cast<const std::uintptr_t*>(k.slots[i] + shift) == k.ips[i];
    if (same) return &k;
  }
  return nullptr;
}

// Keeps a stack just unwound from `frame` (the unwinding function's own frame) as a known one.
// Its slots are those of the return addresses still on the stack: the outermost frames (the
// stack's start, a signal frame) may keep theirs elsewhere, so only the frames up to the first
// that does not are compared; they are the ones that differ between two calls from elsewhere.
__attribute__((no_sanitize_address)) void remember(KnownStacks& known, const Unwinding& u, std::uint32_t id,
                                                   std::uintptr_t frame) {
  if (!kReturnSlotBelowCfa || u.n == 0) return;
  int checked = 0;
  while (checked < u.n &&
         *reinterpret_cast<const std::uintptr_t*>(u.cfas[static_cast<std::size_t>(checked)] - sizeof(std::uintptr_t)) ==
             u.ips[static_cast<std::size_t>(checked)])
    ++checked;
  if (checked == 0) return;
  KnownStack& k = known.ways[known.next++ % kKnownPerSite];
  k.id = id;
  k.n = u.n;
  k.checked = checked;
  k.ips = u.ips;
  for (int i = 0; i < u.n; ++i)
    k.slots[static_cast<std::size_t>(i)] = u.cfas[static_cast<std::size_t>(i)] - sizeof(std::uintptr_t);
  k.first_slot = static_cast<std::ptrdiff_t>(k.slots[0] - frame);
}

std::uint32_t intern(const Unwinding& u) {
  std::string key(reinterpret_cast<const char*>(u.ips.data()), static_cast<std::size_t>(u.n) * sizeof(std::uintptr_t));
  auto [it, fresh] = g_stack_ids.try_emplace(std::move(key), static_cast<std::uint32_t>(g_stacks.size() + 1));
  if (fresh) g_stacks.emplace_back(u.ips.begin(), u.ips.begin() + u.n);
  return it->second;
}

}  // namespace

void set_wrapper_files(const std::string& patterns) {
  g_patterns.clear();
  std::size_t start = 0;
  while (start <= patterns.size()) {
    std::size_t comma = patterns.find(',', start);
    if (comma == std::string::npos) comma = patterns.size();
    if (comma > start) g_patterns.push_back(patterns.substr(start, comma - start));
    start = comma + 1;
  }
  g_verdicts.clear();
  g_known.clear();
  detail::g_last_direct_file = nullptr;
}

bool is_wrapper_file(const std::string& file) {
  if (has_header_extension(file)) return true;
  for (const std::string& p : g_patterns)
    if (file_matches(p, file)) return true;
  return false;
}

const char* detail::g_last_direct_file = nullptr;

__attribute__((noinline)) Site detail::with_wrapper_stack_slow(Site site) {
  if (!wrapper_site(site)) {
    if (site.file) g_last_direct_file = site.file;
    return site;
  }
  const auto frame = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  KnownStacks& known = g_known[site.pc];
  if (const KnownStack* k = known_stack(known, frame)) {
    site.stack = k->id;
    return site;
  }
  Unwinding u;
  u.from = reinterpret_cast<std::uintptr_t>(site.pc);
  _Unwind_Backtrace(collect, &u);
  if (u.n == 0) return site;  // the wrapper's frame was not found (a tail call): no stack
  site.stack = intern(u);
  remember(known, u, site.stack, frame);
  return site;
}

void install_failed_allocation_handler() {
  g_failed_allocation_noted = false;
  std::set_new_handler(&on_failed_allocation);
}

std::uint32_t take_failed_allocation_stack() {
  if (!g_failed_allocation_noted || g_failed_allocation.n == 0) return 0;
  g_failed_allocation_noted = false;
  return intern(g_failed_allocation);
}

__attribute__((noinline)) void note_throw(const void* object, const void* type) {
  if (type == g_ignored_throw_type) return;
  // A program that throws in a loop throws from the same stack each time: known, it costs a
  // read of its return addresses' slots instead of an unwinding (about 1.3 us on this machine).
  const auto frame = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  g_last_throw_object = object;
  if (const KnownStack* k = known_stack(g_known_throws, frame)) {
    g_last_throw.n = k->n;
    g_last_throw.ips = k->ips;
    return;
  }
  g_last_throw = Unwinding{};
  g_last_throw.skip = 2;  // this function and the interposed __cxa_throw
  g_last_throw.limit = kMaxAllocFrames;
  _Unwind_Backtrace(collect, &g_last_throw);
  remember(g_known_throws, g_last_throw, 0, frame);
}

std::uint32_t take_throw_stack() {
  // libstdc++'s exception_ptr is the thrown object's address (what __cxa_throw was given).
  const std::exception_ptr handled = std::current_exception();
  static_assert(sizeof handled == sizeof(void*));
  const void* object = nullptr;
  std::memcpy(&object, static_cast<const void*>(&handled), sizeof object);
  if (!object || object != g_last_throw_object || g_last_throw.n == 0) return 0;
  g_last_throw_object = nullptr;
  return intern(g_last_throw);
}

void ignore_throws_of(const std::type_info& type) { g_ignored_throw_type = &type; }

__attribute__((noinline)) std::uint32_t capture_current_stack() {
  Unwinding u;
  u.skip = 1;  // this function
  u.limit = kMaxAllocFrames;
  _Unwind_Backtrace(collect, &u);
  return u.n ? intern(u) : 0;
}

__attribute__((noinline)) std::uint32_t capture_interrupted_stack(bool trapped_after) {
  Unwinding u;
  u.from_signal = true;
  u.trapped_after = trapped_after;
  u.limit = kMaxAllocFrames;
  _Unwind_Backtrace(collect, &u);
  return u.n ? intern(u) : 0;
}

std::uintptr_t wrapper_caller(std::uint32_t stack) {
  if (stack == 0 || stack > g_stacks.size() || g_stacks[stack - 1].size() < 2) return 0;
  return g_stacks[stack - 1][1];
}

const SymbolisedStack& symbolised_stack(std::uint32_t id) {
  static const SymbolisedStack kNone;
  if (id == 0 || id > g_stacks.size()) return kNone;
  auto [it, fresh] = g_symbolised.try_emplace(id);
  SymbolisedStack& s = it->second;
  if (!fresh) return s;
  std::vector<bool> program;  // per frame: in the program's own objects
  bool leading = true;        // the runtime's own frames on top (an exit handler's) are not shown
  for (std::uintptr_t ip : g_stacks[id - 1]) {
    if (leading && in_runtime(ip)) continue;
    leading = false;
    symbolise(ip, s.frames);
    program.resize(s.frames.size(), in_program_code(ip));
  }
  for (std::size_t i = 0; i < s.frames.size(); ++i)
    if (program[i] && !s.frames[i].file.empty() && !is_wrapper_file(s.frames[i].file)) {
      s.user = static_cast<int>(i);
      break;
    }
  // Kept: the frames to the user's line and up to three of its callers in the program (those
  // with a source line, up to main: beyond are the C library's and the runtime's).
  if (s.user >= 0) {
    std::size_t keep = static_cast<std::size_t>(s.user) + 1;
    while (keep < s.frames.size() && keep <= static_cast<std::size_t>(s.user) + 3 && !s.frames[keep].file.empty() &&
           s.frames[keep - 1].function != "main")
      ++keep;
    s.frames.resize(keep);
  }
  return s;
}

}  // namespace bspcheck::rt
