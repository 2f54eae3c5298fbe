// put_sites.hpp: the call sites that travel with puts, compactly. A target that finds two puts
// colliding (put-collision) names both call sites, which are the sources' own; so each put carries
// a small id of its site, interned per source rank, and the first put of the run from a site to a
// target sends the site itself (file, line, call), ahead of it in the same buffer; the target keeps
// it for the rest of the run. A put costs 4 bytes more on the wire.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "mpi/report/findings.hpp"
#include "mpi/transport/exchange.hpp"

namespace bspcheck::mpi {

class PutSites {
 public:
  explicit PutSites(int nprocs) : announced_(static_cast<std::size_t>(nprocs)), received_(announced_.size()) {}

  // The source's side: the id of `site`. The first time it names a put to `target`, its definition
  // is appended to `out` (with `kind` first) before the put.
  template <class Kind>
  std::uint32_t announce(const CallSite& site, int target, std::vector<std::byte>& out, Kind kind) {
    const std::uint32_t id = intern(site);
    std::vector<bool>& sent = announced_[static_cast<std::size_t>(target)];
    if (sent.size() <= id) sent.resize(id + 1, false);
    if (!sent[id]) {
      sent[id] = true;
      append_value(out, kind);
      append_value(out, id);
      append_value(out, record_of(site));
    }
    return id;
  }

  // The target's side: a definition from rank `source` (its kind already read), and the site an
  // id of `source` names.
  void define(int source, Reader& in);
  const SiteRecord* site(int source, std::uint32_t id) const;

 private:
  std::uint32_t intern(const CallSite& site);

  std::vector<CallSite> sites_;
  std::map<std::tuple<const char*, int, const char*>, std::uint32_t> ids_;
  std::uint32_t last_ = 0;                                     // the last interned site: a loop of puts names one site
  std::vector<std::vector<bool>> announced_;                   // [target][id]: sent there already
  std::vector<std::map<std::uint32_t, SiteRecord>> received_;  // [source]: the sites it sent here
};

}  // namespace bspcheck::mpi
