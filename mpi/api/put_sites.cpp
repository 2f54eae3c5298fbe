#include "mpi/api/put_sites.hpp"

namespace bspcheck::mpi {

std::uint32_t PutSites::intern(const CallSite& site) {
  if (last_ < sites_.size()) {
    const CallSite& last = sites_[last_];
    if (last.file == site.file && last.line == site.line && last.call == site.call) return last_;
  }
  const auto [it, added] =
      ids_.try_emplace({site.file, site.line, site.call}, static_cast<std::uint32_t>(sites_.size()));
  if (added) sites_.push_back(site);
  last_ = it->second;
  return last_;
}

void PutSites::define(int source, Reader& in) {
  const auto id = in.value<std::uint32_t>();
  received_[static_cast<std::size_t>(source)][id] = in.value<SiteRecord>();
}

const SiteRecord* PutSites::site(int source, std::uint32_t id) const {
  const auto& known = received_[static_cast<std::size_t>(source)];
  const auto it = known.find(id);
  return it == known.end() ? nullptr : &it->second;
}

}  // namespace bspcheck::mpi
