/* Does to the user's file all that a run may: overwrites it, renames it, makes a directory beside
 * it, removes it, and then crashes. The user's file must come out of the session as it went in. */
#include <bsp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 0) {
    FILE* f = fopen("user_file.txt", "w");
    if (f) {
      fputs("clobbered\n", f);
      fclose(f);
    }
    rename("user_file.txt", "renamed.txt");
    mkdir("made_dir", 0755);
    unlink("renamed.txt");
  }
  bsp_sync();
  if (bsp_pid() == bsp_nprocs() - 1) raise(SIGSEGV);
  bsp_end();
  return 0;
}
