// libc_state.cpp: the C library's hidden state that separate processes would each have: the
// rand/random generator (with initstate and setstate), the drand48 family, strtok's position and
// the environment. While a world with private globals runs, these functions (interposed here:
// the executable binds to the runtime library before the C library) use the running process's
// own state through glibc's reentrant variants, which compute exactly what the plain functions
// compute. Process 0 goes on from the state the C library had when the world began; processes
// 1..p-1 of a program start from the state of the program's start (or of bsp_init), as separate
// processes running main would (libc_start_state.hpp). Outside a world, or with shared globals,
// the C library's own functions run.
//
// The environment: `environ` is switched with each process (PrivateGlobals::switch_to), so
// getenv reads the running process's. glibc's setenv and unsetenv edit the array `environ`
// points to in place, and its setenv grows the array it allocated last (a static of the C
// library, whichever process it was made for) with realloc; so while a world runs, setenv,
// unsetenv, putenv and clearenv are done here, on an array of the process's own, copied from the
// one it sees at its first change and never shared (a process's arrays and strings stay
// allocated: another process's environment never points into them).
#include <dlfcn.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

extern char** environ;

#include "runtime/isolation/libc_start_state.hpp"
#include "runtime/isolation/private_globals.hpp"
#include "runtime/base/interpose.hpp"

using bspcheck::rt::next_definition;

namespace {

struct ProcessLibcState {
  random_data random{};
  alignas(8) char random_buffer[256];  // room for the largest state (TYPE_4, 256 bytes)
  alignas(8) char scratch[128];        // where setstate_r leaves the state it replaces
  bool random_ready = false;
  drand48_data rand48{};
  char* strtok_next = nullptr;
  char** own_environ = nullptr;  // the array this process made for itself, or none yet
  std::size_t own_capacity = 0;  // its entries, the null one included
};

// The C library's generators as setstate and seed48 give them back: where they stand now.
struct GeneratorState {
  alignas(8) char random[256];  // setstate's format
  unsigned short x[3];          // drand48's
};

// What processes 1..p-1 of a program start from (libc_start_state.hpp). Plain data, zeroed
// before any code runs: a dynamic initializer could run after the load-time constructor that
// fills it, and undo it.
struct StartState {
  GeneratorState generators;
  char** environment;
};
StartState g_start;

// The state of the running process, or nullptr when the C library's own state applies.
struct States {
  const bspcheck::rt::PrivateGlobals* owner = nullptr;
  std::vector<ProcessLibcState> per_process;
  alignas(8) char inherited_random[256];  // glibc's state when the world began (setstate's format)
  unsigned short inherited_x[3];          // drand48's state then
  alignas(8) char others_random[256];     // what processes 1..p-1 start from (StartState, or the above)
  unsigned short others_x[3];
};
States g_states;

// What the processes' setenv and putenv allocated: never freed, as glibc never frees what its
// setenv allocated (a pointer getenv returned stays valid), and kept here so that it is not a leak.
// Never destroyed: a leak checker runs after the static destructors, and must still find them.
std::vector<void*>& g_environment_blocks = *new std::vector<void*>;

void read_c_library_generators(GeneratorState& out) {
  // setstate returns the previous state in the format setstate takes, including where the
  // generator stands; put it straight back so the C library's own sequence is untouched.
  alignas(8) static char probe[128];
  static bool probe_ready = false;
  if (!probe_ready) {
    random_data rd{};
    initstate_r(1, probe, 128, &rd);
    probe_ready = true;
  }
  using SetState = char* (*)(char*);
  static const auto set = next_definition<SetState>("setstate");
  char* now = set(probe);
  // As long as its type says (a program may have given initstate 8 to 256 bytes before bsp_begin):
  // the first word is 5 * position + type, and a type-k state has 0, 7, 15, 31 or 63 more words.
  static constexpr std::size_t kWords[5] = {1, 8, 16, 32, 64};
  std::int32_t head = 0;
  std::memcpy(&head, now, sizeof head);
  std::memcpy(out.random, now, kWords[static_cast<unsigned>(head) % 5] * sizeof head);
  set(now);
  using Seed48 = unsigned short* (*)(unsigned short*);
  static const auto seed = next_definition<Seed48>("seed48");
  unsigned short zero[3] = {0, 0, 0};
  unsigned short* old = seed(zero);
  std::memcpy(out.x, old, sizeof out.x);
  unsigned short back[3];
  std::memcpy(back, out.x, sizeof back);
  seed(back);
}

// A new world: process 0 goes on from the C library's state now; the others start from the
// program's start state when they start the program again (a program's run), else from now too
// (the in-process API, whose processes all begin where the caller is).
void inherit_from_c_library(bool restarted) {
  GeneratorState now{};
  read_c_library_generators(now);
  std::memcpy(g_states.inherited_random, now.random, sizeof now.random);
  std::memcpy(g_states.inherited_x, now.x, sizeof now.x);
  const GeneratorState& others = restarted ? g_start.generators : now;
  std::memcpy(g_states.others_random, others.random, sizeof others.random);
  std::memcpy(g_states.others_x, others.x, sizeof others.x);
}

ProcessLibcState* mine() {
  const auto* g = bspcheck::rt::PrivateGlobals::active();
  if (!g) return nullptr;
  if (g_states.owner != g) {  // a new world: each process's generators from its start state
    g_states.owner = g;
    g_states.per_process.assign(static_cast<std::size_t>(g->nprocs()), ProcessLibcState{});
    inherit_from_c_library(g->restarts_processes());
    for (std::size_t pid = 0; pid < g_states.per_process.size(); ++pid)
      seed48_r(pid == 0 ? g_states.inherited_x : g_states.others_x, &g_states.per_process[pid].rand48);
  }
  ProcessLibcState& s = g_states.per_process[static_cast<std::size_t>(g->resident())];
  if (!s.random_ready) {
    initstate_r(1, s.scratch, sizeof s.scratch, &s.random);
    std::memcpy(s.random_buffer, g->resident() == 0 ? g_states.inherited_random : g_states.others_random,
                sizeof s.random_buffer);
    setstate_r(s.random_buffer, &s.random);
    s.random_ready = true;
  }
  return &s;
}

// The program's start: taken before main runs.
__attribute__((constructor)) void take_start_state_at_load() { bspcheck::rt::take_libc_start_state(); }

}  // namespace

namespace bspcheck::rt {

void take_libc_start_state() {
  read_c_library_generators(g_start.generators);
  std::size_t n = 0;
  while (environ && environ[n]) ++n;
  // Never freed: a world's processes may still point at an earlier copy. Each copy keeps the one
  // before it in a slot past its terminator, so that a leak checker finds them all reachable.
  char** copy = new char*[n + 2];
  for (std::size_t i = 0; i < n; ++i) copy[i] = environ[i];
  copy[n] = nullptr;
  copy[n + 1] = reinterpret_cast<char*>(g_start.environment);
  g_start.environment = copy;
}

char** libc_start_environment() { return g_start.environment; }

}  // namespace bspcheck::rt

extern "C" {

int rand(void) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<int (*)()>("rand");
    return real();
  }
  int32_t r = 0;
  random_r(&s->random, &r);
  return r;
}

long random(void) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<long (*)()>("random");
    return real();
  }
  int32_t r = 0;
  random_r(&s->random, &r);
  return r;
}

void srand(unsigned seed) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<void (*)(unsigned)>("srand");
    return real(seed);
  }
  srandom_r(seed, &s->random);
}

void srandom(unsigned seed) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<void (*)(unsigned)>("srandom");
    return real(seed);
  }
  srandom_r(seed, &s->random);
}

// As glibc's: the state in use (its buffer: random_data::state points one word past the start)
// is returned, in the form setstate takes, after the new one is made the process's.
char* initstate(unsigned seed, char* state, size_t n) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<char* (*)(unsigned, char*, size_t)>("initstate");
    return real(seed, state, n);
  }
  char* previous = reinterpret_cast<char*>(s->random.state - 1);
  return initstate_r(seed, state, n, &s->random) == -1 ? nullptr : previous;
}

char* setstate(char* state) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<char* (*)(char*)>("setstate");
    return real(state);
  }
  char* previous = reinterpret_cast<char*>(s->random.state - 1);
  return setstate_r(state, &s->random) < 0 ? nullptr : previous;
}

double drand48(void) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<double (*)()>("drand48");
    return real();
  }
  double r = 0;
  drand48_r(&s->rand48, &r);
  return r;
}

double erand48(unsigned short xsubi[3]) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<double (*)(unsigned short*)>("erand48");
    return real(xsubi);
  }
  double r = 0;
  erand48_r(xsubi, &s->rand48, &r);
  return r;
}

long lrand48(void) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<long (*)()>("lrand48");
    return real();
  }
  long r = 0;
  lrand48_r(&s->rand48, &r);
  return r;
}

long nrand48(unsigned short xsubi[3]) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<long (*)(unsigned short*)>("nrand48");
    return real(xsubi);
  }
  long r = 0;
  nrand48_r(xsubi, &s->rand48, &r);
  return r;
}

long mrand48(void) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<long (*)()>("mrand48");
    return real();
  }
  long r = 0;
  mrand48_r(&s->rand48, &r);
  return r;
}

long jrand48(unsigned short xsubi[3]) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<long (*)(unsigned short*)>("jrand48");
    return real(xsubi);
  }
  long r = 0;
  jrand48_r(xsubi, &s->rand48, &r);
  return r;
}

void srand48(long seed) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<void (*)(long)>("srand48");
    return real(seed);
  }
  srand48_r(seed, &s->rand48);
}

unsigned short* seed48(unsigned short seed16v[3]) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<unsigned short* (*)(unsigned short*)>("seed48");
    return real(seed16v);
  }
  seed48_r(seed16v, &s->rand48);
  return s->rand48.__old_x;
}

void lcong48(unsigned short param[7]) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<void (*)(unsigned short*)>("lcong48");
    return real(param);
  }
  lcong48_r(param, &s->rand48);
}

char* strtok(char* str, const char* delim) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<char* (*)(char*, const char*)>("strtok");
    return real(str, delim);
  }
  return strtok_r(str, delim, &s->strtok_next);
}

}  // extern "C"

// --- the environment ------------------------------------------------------------------------

namespace {

std::size_t environment_size() {
  std::size_t n = 0;
  if (environ)
    while (environ[n]) ++n;
  return n;
}

// The index of name's entry in environ (name is namelen bytes, without '='), or -1.
long find_variable(const char* name, std::size_t namelen) {
  if (!environ) return -1;
  for (long i = 0; environ[i]; ++i)
    if (std::strncmp(environ[i], name, namelen) == 0 && environ[i][namelen] == '=') return i;
  return -1;
}

// Makes environ an array of the running process's own with room for `more` entries, and returns
// it; nullptr when out of memory.
char** own_environment(ProcessLibcState& s, std::size_t more) {
  const std::size_t n = environment_size();
  if (environ && environ == s.own_environ && n + more + 1 <= s.own_capacity) return environ;
  const std::size_t capacity = (n + more + 1) * 2;
  auto* a = static_cast<char**>(std::malloc(capacity * sizeof(char*)));
  if (!a) return nullptr;
  if (n) std::memcpy(a, environ, n * sizeof(char*));
  a[n] = nullptr;
  g_environment_blocks.push_back(a);
  s.own_environ = a;
  s.own_capacity = capacity;
  environ = a;
  return a;
}

// Puts `entry` ("NAME=value", name namelen bytes) into the process's environment.
int put_variable(ProcessLibcState& s, const char* entry, std::size_t namelen, bool replace) {
  const long at = find_variable(entry, namelen);
  if (at >= 0 && !replace) return 0;
  char** a = own_environment(s, at >= 0 ? 0 : 1);
  if (!a) {
    errno = ENOMEM;
    return -1;
  }
  if (at >= 0) {
    a[at] = const_cast<char*>(entry);
  } else {
    const std::size_t n = environment_size();
    a[n] = const_cast<char*>(entry);
    a[n + 1] = nullptr;
  }
  return 0;
}

bool bad_name(const char* name) { return !name || !*name || std::strchr(name, '='); }

void remove_variable(ProcessLibcState& s, const char* name, std::size_t namelen) {
  if (find_variable(name, namelen) < 0) return;
  char** a = own_environment(s, 0);
  if (!a) return;  // (glibc's unsetenv cannot fail either)
  for (char** ep = a; *ep;) {
    if (std::strncmp(*ep, name, namelen) == 0 && (*ep)[namelen] == '=') {
      for (char** dp = ep; (dp[0] = dp[1]) != nullptr; ++dp) {
      }
    } else {
      ++ep;
    }
  }
}

}  // namespace

extern "C" {

int setenv(const char* name, const char* value, int replace) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<int (*)(const char*, const char*, int)>("setenv");
    return real(name, value, replace);
  }
  if (bad_name(name)) {
    errno = EINVAL;
    return -1;
  }
  const std::size_t namelen = std::strlen(name);
  if (!replace && find_variable(name, namelen) >= 0) return 0;
  const std::size_t valuelen = std::strlen(value);
  auto* entry = static_cast<char*>(std::malloc(namelen + valuelen + 2));
  if (!entry) {
    errno = ENOMEM;
    return -1;
  }
  std::memcpy(entry, name, namelen);
  entry[namelen] = '=';
  std::memcpy(entry + namelen + 1, value, valuelen + 1);
  g_environment_blocks.push_back(entry);
  return put_variable(*s, entry, namelen, true);
}

int unsetenv(const char* name) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<int (*)(const char*)>("unsetenv");
    return real(name);
  }
  if (bad_name(name)) {
    errno = EINVAL;
    return -1;
  }
  remove_variable(*s, name, std::strlen(name));
  return 0;
}

int putenv(char* string) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<int (*)(char*)>("putenv");
    return real(string);
  }
  const char* eq = std::strchr(string, '=');
  if (!eq) {  // glibc: a name alone removes the variable
    remove_variable(*s, string, std::strlen(string));
    return 0;
  }
  return put_variable(*s, string, static_cast<std::size_t>(eq - string), true);
}

int clearenv(void) {
  ProcessLibcState* s = mine();
  if (!s) {
    static const auto real = next_definition<int (*)()>("clearenv");
    return real();
  }
  environ = nullptr;
  return 0;
}

}  // extern "C"
