/* Prints every variable of the environment as main got it ("main NAME=VALUE") and, from process
 * 0, as bsp_begin left it ("env NAME=VALUE"), a newline in a value written as "\n": the program
 * must see the environment it was started with, nothing of the driver's own (BSPCHECK_OPTIONS and
 * the other variables the runtime reads, the fork server's channel, the LD_BIND_NOW it is started
 * with). */
#include <bsp.h>
#include <stdio.h>

extern char** environ;

static void print_environment(const char* when) {
  for (char** e = environ; *e; ++e) {
    printf("%s ", when);
    for (const char* c = *e; *c; ++c) c[0] == '\n' ? fputs("\\n", stdout) : putchar(*c);
    putchar('\n');
  }
}

int main(void) {
  print_environment("main");
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 0) print_environment("env");
  bsp_end();
  return 0;
}
