#include "tools/launch/stdin_feed.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace bspcheck::cli {

StdinFeed::StdinFeed() {
  struct stat st {};
  if (isatty(STDIN_FILENO) || fstat(STDIN_FILENO, &st) != 0) {
    terminal_ = isatty(STDIN_FILENO);
    return;  // inherited as it is (a terminal, or no stdin at all)
  }
  if (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode)) {  // a file, /dev/null: every run from the same place
    shared_fd_ = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
    start_ = lseek(STDIN_FILENO, 0, SEEK_CUR);
    if (start_ < 0) start_ = 0;
    if (S_ISREG(st.st_mode) && st.st_size > start_) file_bytes_ = st.st_size - start_;
    return;
  }
  streamed_ = true;
  buffer_fd_ = memfd_create("bsp-check-stdin", MFD_CLOEXEC);
  if (buffer_fd_ < 0) {
    streamed_ = false;  // no memfd: every run reads the driver's stdin in turn
    return;
  }
  if (take_what_is_written()) {
    // The whole input is here: a file of it, given to every run as a regular file is (the fork
    // server's workers then run the session, 30 times faster on a small program than a child
    // started anew per run, which a stream needs).
    streamed_ = false;
    shared_fd_ = buffer_fd_;
    buffer_fd_ = -1;
    file_bytes_ = buffered_;
    buffered_ = 0;
  }
}

bool StdinFeed::take_what_is_written() {
  // Only what is there already: a writer that has closed its end (`cmd < /dev/null` piped, an
  // `echo x |`, a harness's empty pipe) has written all it will, while an open one may be a
  // person typing or an endless `yes`, which stay streamed. Bounded, so that an endless input
  // costs this much memory and a few milliseconds at most before it is streamed as before.
  constexpr off_t kAtMost = 4 << 20;
  // A writer that is still writing (`cat FILE |` with more than a pipe holds) is given this long
  // between its chunks; an empty pipe is not waited for at all.
  constexpr int kBetweenChunksMs = 20;
  char buf[1 << 16];
  while (buffered_ < kAtMost) {
    pollfd p{STDIN_FILENO, POLLIN, 0};
    const int ready = poll(&p, 1, buffered_ ? kBetweenChunksMs : 0);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0 || !(p.revents & (POLLIN | POLLHUP))) return false;  // nothing (more) yet: a writer still open
    const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return eof_ = true;
    if (pwrite(buffer_fd_, buf, static_cast<std::size_t>(n), buffered_) != n) return false;
    buffered_ += n;
  }
  return false;
}

StdinFeed::~StdinFeed() {
  if (shared_fd_ >= 0) close(shared_fd_);
  if (buffer_fd_ >= 0) close(buffer_fd_);
}

std::unique_ptr<StdinFeed::Run> StdinFeed::start_run() {
  std::unique_ptr<Run> run(new Run);
  if (shared_fd_ >= 0) {
    // An opening of its own, with its own offset: with -j, runs (and fork servers, whose
    // children rewind stdin) read the same file at once, and a shared offset would mix them.
    const std::string self = "/proc/self/fd/" + std::to_string(shared_fd_);
    const int own = open(self.c_str(), O_RDONLY | O_CLOEXEC);
    if (own >= 0) {
      run->fd_ = own;
      run->owned_ = true;
    } else {
      run->fd_ = shared_fd_;
    }
    lseek(run->fd_, start_, SEEK_SET);
  } else if (streamed_) {
    int data[2];
    if (pipe2(data, O_CLOEXEC) != 0) return run;
    if (pipe2(run->stop_, O_CLOEXEC) != 0) {
      close(data[0]);
      close(data[1]);
      return run;
    }
    // Non-blocking writes: the feeder waits in poll, where a stop request can reach it.
    fcntl(data[1], F_SETFL, fcntl(data[1], F_GETFL) | O_NONBLOCK);
    run->fd_ = data[0];
    run->feeder_ = std::thread([this, out = data[1], stop = run->stop_[0]] {
      feed(out, stop);
      close(out);  // the run sees the end of its input
    });
  }
  return run;
}

void StdinFeed::Run::child_started() {
  if (stop_[0] >= 0 && fd_ >= 0) {  // streamed: the read end belongs to the child now
    close(fd_);
    fd_ = -1;
  }
}

StdinFeed::Run::~Run() {
  if (feeder_.joinable()) {
    const char stop = 1;
    while (write(stop_[1], &stop, 1) < 0 && errno == EINTR) {
    }
    feeder_.join();
  }
  for (int fd : stop_)
    if (fd >= 0) close(fd);
  if ((stop_[0] >= 0 || owned_) && fd_ >= 0) close(fd_);
}

void StdinFeed::feed(int out_fd, int stop_fd) {
  // Waits until `fd` is ready for `events`; false when the run is over (stop, or its reader gone).
  auto wait_for = [stop_fd](int fd, short events) {
    for (;;) {
      pollfd p[2] = {{fd, events, 0}, {stop_fd, POLLIN, 0}};
      if (poll(p, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      if (p[1].revents) return false;
      if (p[0].revents & (events | POLLHUP)) return !(events == POLLOUT && (p[0].revents & (POLLERR | POLLHUP)));
      if (p[0].revents & (POLLERR | POLLNVAL)) return false;
    }
  };
  char buf[1 << 16];
  for (off_t at = 0;;) {
    if (at == buffered_) {  // the run wants more than earlier runs took: read on from stdin
      if (eof_) return;
      if (!wait_for(STDIN_FILENO, POLLIN)) return;
      const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        eof_ = true;
        return;
      }
      if (pwrite(buffer_fd_, buf, static_cast<std::size_t>(n), buffered_) != n) return;
      buffered_ += n;
    }
    const ssize_t n = pread(buffer_fd_, buf, sizeof buf, at);
    if (n <= 0) return;
    for (ssize_t done = 0; done < n;) {
      if (!wait_for(out_fd, POLLOUT)) return;
      const ssize_t w = write(out_fd, buf + done, static_cast<std::size_t>(n - done));
      if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (w <= 0) return;  // EPIPE: the run has ended or closed its input
      done += w;
    }
    at += n;
  }
}

}  // namespace bspcheck::cli
