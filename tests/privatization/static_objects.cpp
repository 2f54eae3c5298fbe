// C++ static objects are per process: each process constructs its own (a global std::vector
// owning heap memory, a global with a constructor that counts, a static local), writes to them,
// and destroys them at its end, as a separate OS process would. Run in a shared address space
// without privatisation, the processes would see each other's appends and free the vector's
// buffer several times.
#include <bsp.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

struct Counted {
  int constructed_here = 0;
  Counted() { constructed_here = 1; }
  ~Counted() { std::printf("destructor of a Counted, count %d\n", constructed_here); }
};

std::vector<int> history = {1, 2, 3};
Counted counted;
std::string name = "a string long enough to live on the heap";

static std::vector<int>& log_of_process() {
  static std::vector<int> log;  // constructed at first use, by each process
  return log;
}

int main() {
  bsp_begin(bsp_nprocs());
  const int s = bsp_pid();
  for (int i = 0; i < 100 * (s + 1); ++i) history.push_back(s);
  log_of_process().push_back(s);
  name += std::to_string(s);
  bsp_sync();
  const bool own = history.size() == 3 + 100u * (s + 1) && history.back() == s && log_of_process().size() == 1 &&
                   counted.constructed_here == 1 && name.back() == '0' + s;
  std::cout << "process " << s << (own ? " own" : " SHARED") << " history " << history.size() << " name "
            << name.substr(name.size() - 2) << std::endl;
  bsp_end();
  return 0;
}
