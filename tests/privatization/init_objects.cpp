// init_objects.cpp: a bsp_init program whose C++ static objects own heap blocks. Under a BSPlib
// whose processes all start the program (BSPonMPI, the Oxford toolset) every process constructs
// its own; so here: each process grows its own vector (reallocating it, so freeing the old block)
// and map, and ends with what it put in them. A count main reads from argv before bsp_init
// reaches every process too.
#include <bsp.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

std::vector<int> history = {1, 2, 3};
std::map<std::string, int> seen;
static int rounds = 1;

static void spmd() {
  bsp_begin(bsp_nprocs());
  const int me = bsp_pid();
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k < 100; ++k) history.push_back(me);
    seen["process " + std::to_string(me)] += 1;
    bsp_sync();
  }
  long sum = 0;
  for (int v : history) sum += v;
  std::printf("process %d: rounds %d history %zu sum %ld seen %zu\n", me, rounds, history.size(), sum, seen.size());
  bsp_end();
}

int main(int argc, char** argv) {
  if (argc > 1) rounds = std::atoi(argv[1]);  // before bsp_init, against BSPlib 2.1 (6), as programs do
  bsp_init(spmd, argc, argv);
  spmd();
  return 0;
}
