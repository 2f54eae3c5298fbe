// symbol_names.hpp: a symbol's name as a reader writes it, for stacks and variable names.
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace bspcheck::rt {

// A C++ symbol demangled ("_ZN1A3getEv" → "A::get()"); any other name as it is. Only "_Z" names
// are mangled: the demangler also reads a bare type code, so a C function named `f` would
// become "float" and one named `g` "__float128".
inline std::string demangled(const char* name) {
  if (!name) return "";
  if (name[0] != '_' || name[1] != 'Z') return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(name);
}

}  // namespace bspcheck::rt
