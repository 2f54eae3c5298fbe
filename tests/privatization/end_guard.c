/* end_guard.c: a C executable whose SPMD part is end_guard_library.cpp's function, linked in
 * (the library is among those loaded with the program) or, with END_GUARD_DLOPEN, loaded with
 * dlopen before bsp_begin (after the runtime looked at what was loaded). */
#include <bsp.h>
#include <stdio.h>

#ifdef END_GUARD_DLOPEN
#include <dlfcn.h>
static void (*end_guard_spmd)(void);
static void spmd(void) { end_guard_spmd(); }
#else
void end_guard_spmd(void);
static void spmd(void) { end_guard_spmd(); }
#endif

int main(int argc, char** argv) {
#ifdef END_GUARD_DLOPEN
  if (argc < 2) return 2;
  void* library = dlopen(argv[1], RTLD_NOW);
  if (!library) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  end_guard_spmd = (void (*)(void))dlsym(library, "end_guard_spmd");
  if (!end_guard_spmd) return 2;
#endif
  bsp_init(spmd, argc, argv);
  spmd();
  return 0;
}
