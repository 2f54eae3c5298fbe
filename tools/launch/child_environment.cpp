#include "tools/launch/child_environment.hpp"

#include <algorithm>

extern char** environ;

namespace bspcheck::cli {

namespace {

bool names(const std::string& entry, std::string_view name) {
  return entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 && entry[name.size()] == '=';
}

}  // namespace

ChildEnvironment::ChildEnvironment() {
  for (char** e = environ; e && *e; ++e) entries_.emplace_back(*e);
}

std::vector<std::string>::iterator ChildEnvironment::find(std::string_view name) {
  return std::find_if(entries_.begin(), entries_.end(), [&](const std::string& e) { return names(e, name); });
}

std::vector<std::string>::const_iterator ChildEnvironment::find(std::string_view name) const {
  return std::find_if(entries_.begin(), entries_.end(), [&](const std::string& e) { return names(e, name); });
}

void ChildEnvironment::set(std::string_view name, std::string_view value) {
  std::string entry;
  entry.reserve(name.size() + 1 + value.size());
  entry.append(name).append("=").append(value);
  if (auto at = find(name); at != entries_.end()) *at = std::move(entry);
  else entries_.push_back(std::move(entry));
}

void ChildEnvironment::set_default(std::string_view name, std::string_view value) {
  if (!has(name)) set(name, value);
}

void ChildEnvironment::prepend_options(std::string_view name, std::string_view options) {
  const auto at = find(name);
  const std::string_view old =
      at == entries_.end() ? std::string_view{} : std::string_view(*at).substr(name.size() + 1);
  set(name, old.empty() ? std::string(options) : std::string(options) + ":" + std::string(old));
}

void ChildEnvironment::unset(std::string_view name) {
  // Every copy: an environment may name a variable twice (getenv reads the first, a program
  // walking environ sees both).
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [&](const std::string& e) { return names(e, name); }),
                 entries_.end());
}

bool ChildEnvironment::has(std::string_view name) const {
  return std::any_of(entries_.begin(), entries_.end(), [&](const std::string& e) { return names(e, name); });
}

char* const* ChildEnvironment::envp() {
  pointers_.clear();
  pointers_.reserve(entries_.size() + 1);
  for (std::string& e : entries_) pointers_.push_back(e.data());
  pointers_.push_back(nullptr);
  return pointers_.data();
}

}  // namespace bspcheck::cli
