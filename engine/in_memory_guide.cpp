#include "engine/in_memory_guide.hpp"

#include <stdexcept>

namespace bspcheck::rt {

namespace {
thread_local InMemoryGuide* t_guide = nullptr;
}  // namespace

InMemoryGuide::InMemoryGuide(trace::GuidedScheduler::Script script, std::vector<trace::OfferedChoice>& log)
    : script_(std::move(script)), log_(log) {
  if (t_guide) throw std::logic_error("bspcheck: an in-memory guide is already set on this thread");
  t_guide = this;
}

InMemoryGuide::~InMemoryGuide() { t_guide = nullptr; }

InMemoryGuide* InMemoryGuide::current() { return t_guide; }

}  // namespace bspcheck::rt
