// stdin_feed.hpp: the driver's standard input, given to every run as if each were the only one.
//
// A terminal is inherited (interactive programs work; nothing can be replayed). A regular file is
// shared: each run starts at the offset the driver found. A pipe whose writer has closed its end
// by the time the session starts (`echo 5 | bsp-check run ./prog`, a harness's empty pipe) holds
// all it ever will: it is read then, into a memfd, and shared as a file. Any other pipe (`yes |
// bsp-check run ./prog`, a writer still at work) is streamed lazily: a feeder thread writes each
// run's input into a pipe of its own, first the bytes earlier runs already took from the driver's
// stdin (kept in a memfd), then more, read from stdin only when the run wants them. Only what was
// written already is read before the first run, a run that never reads its input costs at most a
// pipe's capacity, and an endless input is fine.
#pragma once

#include <sys/types.h>

#include <memory>
#include <thread>

namespace bspcheck::cli {

class StdinFeed {
 public:
  StdinFeed();
  ~StdinFeed();
  StdinFeed(const StdinFeed&) = delete;
  StdinFeed& operator=(const StdinFeed&) = delete;

  // Whether a process started once may hand its stdin to children it forks (a fork server):
  // true for a terminal or a regular file; a streamed pipe gives each run a pipe of its own.
  bool shareable() const { return !streamed_; }
  bool terminal() const { return terminal_; }
  // Whether runs were handed input a reproduction needs too: a non-empty file, or bytes read
  // from a pipe (not a terminal, where the user typed it, nor /dev/null). After the runs.
  bool gave_input() const { return streamed_ ? buffered_ > 0 : file_bytes_ > 0; }

  // The input of one run, alive from before its fork until it was reaped.
  class Run {
   public:
    Run(Run&&) = delete;
    ~Run();                         // stops and joins the feeder
    int fd() const { return fd_; }  // for the child's dup2 onto 0; -1: inherit the driver's stdin
    void child_started();           // in the driver after fork: the read end is the child's now
   private:
    friend class StdinFeed;
    Run() = default;
    int fd_ = -1;
    bool owned_ = false;  // fd_ is this run's own opening of the input file (closed with it)
    int stop_[2] = {-1, -1};
    std::thread feeder_;
  };
  std::unique_ptr<Run> start_run();

 private:
  void feed(int out_fd, int stop_fd);  // the feeder thread
  // A pipe: reads what its writer has written so far, into the buffer; true when that is all
  // (the writer closed its end), and the input is then a file.
  bool take_what_is_written();
  bool terminal_ = false, streamed_ = false, eof_ = false;
  int shared_fd_ = -1;    // regular file: the driver's stdin
  off_t start_ = 0;       // regular file: where every run starts
  off_t file_bytes_ = 0;  // regular file: the bytes from there on
  int buffer_fd_ = -1;    // streamed: the bytes read from stdin so far
  off_t buffered_ = 0;
};

}  // namespace bspcheck::cli
