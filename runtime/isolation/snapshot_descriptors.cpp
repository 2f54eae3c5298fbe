#include "runtime/isolation/snapshot_descriptors.hpp"

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

#include "runtime/isolation/proc_self.hpp"
#include "runtime/isolation/raw_syscall.hpp"

namespace bspcheck::rt::snapshot {

bool save_descriptors(Vault& v) {
  v.nfds = 0;
  bool fds_ok = for_each_fd([&](int fd) {
    if (v.nfds == kMaxFds) return;
    struct stat st {};
    if (fstat(fd, &st) != 0) return;
    v.fds[v.nfds++] = SavedFd{fd, S_ISREG(st.st_mode) ? lseek(fd, 0, SEEK_CUR) : -1, st.st_dev, st.st_ino};
  });
  if (!fds_ok || v.nfds == kMaxFds) return false;
  std::sort(v.fds, v.fds + v.nfds, [](const SavedFd& a, const SavedFd& b) { return a.fd < b.fd; });
  // Asks whether the kernel has close_range (an empty range: nothing is closed).
  v.close_gaps = raw_syscall(SYS_close_range, ~0U, ~0U, 0) == 0;
  return true;
}

bool plan_descriptors(Vault& v) {
  // Those opened since are closed; those of the moment must still be the same files.
  v.nclose = 0;
  if (!v.close_gaps) {
    int seen = 0;
    bool room = true;
    const bool listed = for_each_fd([&](int fd) {
      for (int i = 0; i < v.nfds; ++i)
        if (v.fds[i].fd == fd) {
          ++seen;
          return;
        }
      if (v.nclose < kMaxFds) v.close_fds[v.nclose++] = fd;
      else room = false;
    });
    if (!listed || !room || seen != v.nfds) return false;
  }
  for (int i = 0; i < v.nfds; ++i) {
    struct stat st {};
    if (fstat(v.fds[i].fd, &st) != 0) return false;  // closed by the run
    // stdout and stderr are set up by each run (runtime/isolation/fork_server.cpp); stdin is the moment's.
    if (v.fds[i].fd == 1 || v.fds[i].fd == 2) continue;
    if (st.st_dev != v.fds[i].dev || st.st_ino != v.fds[i].ino) return false;
  }
  return true;
}

}  // namespace bspcheck::rt::snapshot
