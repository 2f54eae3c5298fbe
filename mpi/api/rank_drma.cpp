// rank_drma.cpp: registration and DRMA calls of one rank (BSPlib 3.1-3.3), checked as the engine
// checks them (engine/core/world_drma.cpp: the same rules and the same text), resolved through this
// rank's copy of the slots, and packed for the sync's exchange.
#include <sstream>

#include <cstring>

#include "mpi/api/rank.hpp"

namespace bspcheck::mpi {

void Rank::push_reg(const void* ident, int size) {
  record(trace::Call::push_reg, -1, size);
  if (size < 0) {
    // Registered as 0 bytes, as the engine does, so that the slots still line up across ranks.
    report(Rule::reg_negative_size,
           "process " + std::to_string(pid_) + " registers an area of size " + std::to_string(size));
    size = 0;
  }
  regs_->push(ident, size, site_);
  // Readable by the others from the sync on (they may not name it before): attached now.
  if (window_) window_->cover(ident, size);
}

void Rank::pop_reg(const void* ident) {
  record(trace::Call::pop_reg, -1, 0);
  regs_->pop(ident, site_);
}

bool Rank::check_transfer_args(int pid, int offset, int nbytes, const void* local, const char* local_name) {
  if (pid < 0 || pid >= p_) {
    report(Rule::bad_pid, "process " + std::to_string(pid_) + " names process " + std::to_string(pid) +
                              ", outside 0.." + std::to_string(p_ - 1));
    return false;
  }
  if (offset < 0 || nbytes < 0) {
    report(Rule::api_misuse,
           "process " + std::to_string(pid_) + " passes a negative " +
               (offset < 0 ? "offset (" + std::to_string(offset) + ")" : "size (" + std::to_string(nbytes) + ")"));
    return false;
  }
  if (!local && nbytes > 0) {
    report(Rule::api_misuse, "process " + std::to_string(pid_) + " passes a NULL " + local_name +
                                 " with nbytes = " + std::to_string(nbytes));
    return false;
  }
  return true;
}

std::uint64_t Rank::resolve(int target, const void* local, int offset, int nbytes, bool is_put) {
  const int slot = regs_->find(local);
  const char* what = is_put ? "destination" : "source";
  if (slot < 0) {
    if (local && regs_->pushed_now(local)) {
      report(Rule::reg_not_active, std::string("the ") + what + " of process " + std::to_string(pid_) + "'s " +
                                       site_.call +
                                       " was registered in this superstep; it becomes usable after the "
                                       "next bsp_sync");
      return 0;
    }
    std::ostringstream s;
    s << "the " << what << " address " << local << " of process " << pid_ << "'s " << site_.call
      << " is not registered";
    report(Rule::reg_unregistered, s.str());
    return 0;
  }
  const Registrations::Entry& e = regs_->entry(slot, target);
  if (!e.addr) {
    report(Rule::reg_unregistered,
           "process " + std::to_string(pid_) + "'s " + site_.call + " reaches process " + std::to_string(target) +
               ", which registered NULL in that slot",
           {pid_, target});
    return 0;
  }
  if (static_cast<std::int64_t>(offset) + nbytes > e.size) {
    std::ostringstream s;
    s << "process " << pid_ << (is_put ? " writes" : " reads") << " bytes " << offset << ".."
      << static_cast<std::int64_t>(offset) + nbytes << " of a " << e.size << "-byte area on process " << target;
    report(is_put ? Rule::bounds_put : Rule::bounds_get, s.str(), {pid_, target});
    return 0;
  }
  return e.addr + static_cast<std::uint64_t>(offset);
}

std::uint64_t Rank::digest(const void* p, std::size_t n) {
  // FNV-1a over 8-byte words, then the tail: cheap enough to run at every bsp_hpput.
  const auto* b = static_cast<const unsigned char*>(p);
  std::uint64_t h = 14695981039346656037ull;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, b + i, 8);
    h = (h ^ w) * 1099511628211ull;
  }
  for (; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

void Rank::put(int pid, const void* src, void* dst, int offset, int nbytes, bool unbuffered) {
  record(unbuffered ? trace::Call::hpput : trace::Call::put, pid, nbytes, src,
         src && nbytes > 0 && pid >= 0 && pid < p_ ? static_cast<std::size_t>(nbytes) : 0);
  if (!check_transfer_args(pid, offset, nbytes, src, "source") || nbytes == 0) return;
  const std::uint64_t target = resolve(pid, dst, offset, nbytes, true);
  if (!target) return;
  bytes_out_ += nbytes;
  std::vector<std::byte>& out = exchange_->outgoing(pid);
  const std::uint32_t site = put_sites_->announce(site_, pid, out, Record::site);
  if (unbuffered) {
    // Unbuffered: the source is read at the sync, a moment BSPlib allows (docs/mpi.md).
    const std::uint64_t src_digest = digest_hp_sources_ ? digest(src, static_cast<std::size_t>(nbytes)) : 0;
    hpputs_.push_back({pid, src, target, nbytes, site, site_, src_digest});
    ++hp_operations_;
    return;
  }
  // Buffered on source: the bytes go into the exchange's buffer now.
  append_value(out, Record::put);
  append_value(out, std::uint8_t{0});
  append_value(out, target);
  append_value(out, static_cast<std::uint32_t>(nbytes));
  append_value(out, site);
  append_bytes(out, src, static_cast<std::size_t>(nbytes));
}

void Rank::get(int pid, const void* src, int offset, void* dst, int nbytes, bool unbuffered) {
  record(unbuffered ? trace::Call::hpget : trace::Call::get, pid, nbytes);
  if (!check_transfer_args(pid, offset, nbytes, dst, "destination") || nbytes == 0) return;
  const std::uint64_t source = resolve(pid, src, offset, nbytes, false);
  if (!source) return;
  bytes_in_ += nbytes;
  // Both kinds are served at the sync (an hpget's moment is any until the sync's end); an hpget's
  // value lands before the buffered gets' (rank_sync.cpp).
  std::vector<std::byte>& out = exchange_->outgoing(pid);
  append_value(out, Record::get);
  append_value(out, std::uint8_t{unbuffered});
  append_value(out, source);
  append_value(out, static_cast<std::uint32_t>(nbytes));
  append_value(out, static_cast<std::uint32_t>(gets_.size()));
  // What an hpget's source holds now, read without its owner (another rank's through the window):
  // the sync serves the data, and a change in between is hp-src-modified (rank_sync.cpp).
  bool src_read = false;
  std::uint64_t src_digest = 0;
  if (unbuffered && digest_hp_sources_ && pid == pid_) {
    src_digest = digest(reinterpret_cast<const void*>(source), static_cast<std::size_t>(nbytes));
    src_read = true;
  } else if (unbuffered && window_) {
    std::vector<std::byte> now(static_cast<std::size_t>(nbytes));
    window_->read(pid, source, now.data(), now.size());
    src_digest = digest(now.data(), now.size());
    src_read = true;
  }
  gets_.push_back({dst, nbytes, unbuffered, site_, pid, src_read, src_digest});
  if (unbuffered) ++hp_operations_;
}

}  // namespace bspcheck::mpi
