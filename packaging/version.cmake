# version.cmake: the one place bsp-check's version is made, run by CMake in script mode
# (cmake -DSOURCE_DIR=.. -DBASE_VERSION=.. -DOUTPUT_DIR=.. -P version.cmake) at configure time and
# again at every build, so that a commit changes what --version prints without a reconfigure.
#
# The version is the project's (project(BSPCheck VERSION ...) in CMakeLists.txt). In a git
# checkout that is not exactly at the tag v<version>, `git describe` is appended as build
# metadata: 0.1.0+5.g4965788 (5 commits after v0.1.0), 0.1.0+g4965788 (no such tag yet),
# 0.1.0+g4965788.dirty (uncommitted changes). The '+' form is both a SemVer and a Debian upstream
# version, so the same string names the .deb, is printed by --version and is written into every
# trace header (replay/trace_format.hpp allows 64 bytes there).
#
# Writes OUTPUT_DIR/bspcheck_version.hpp (from bspcheck_version.hpp.in) and OUTPUT_DIR/version.txt
# (for CPack), each only when its content changes, so that an unchanged version rebuilds nothing.
cmake_minimum_required(VERSION 3.20)
foreach(var SOURCE_DIR BASE_VERSION OUTPUT_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "version.cmake: -D${var}=... is required")
  endif()
endforeach()

set(metadata "")
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")  # a worktree's .git is a file: EXISTS holds for both
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" describe --tags --dirty --abbrev=7
                          --match "v${BASE_VERSION}"
                  OUTPUT_VARIABLE described RESULT_VARIABLE failed ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT failed)
    # v0.1.0, v0.1.0-dirty, v0.1.0-5-g4965788, v0.1.0-5-g4965788-dirty: what follows the tag.
    string(LENGTH "v${BASE_VERSION}" tag_length)
    string(SUBSTRING "${described}" ${tag_length} -1 metadata)
  else()
    # No tag of this version: the commit alone.
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" describe --always --dirty --abbrev=7 --exclude "*"
                    OUTPUT_VARIABLE described RESULT_VARIABLE failed ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT failed)
      set(metadata "-g${described}")
    endif()
  endif()
  # Build metadata is dot-separated: -5-g4965788-dirty becomes 5.g4965788.dirty.
  string(REGEX REPLACE "^-" "" metadata "${metadata}")
  string(REPLACE "-" "." metadata "${metadata}")
endif()

if(metadata STREQUAL "")
  set(BSPCHECK_VERSION "${BASE_VERSION}")
else()
  set(BSPCHECK_VERSION "${BASE_VERSION}+${metadata}")
endif()
configure_file("${CMAKE_CURRENT_LIST_DIR}/bspcheck_version.hpp.in" "${OUTPUT_DIR}/bspcheck_version.hpp" @ONLY)
file(CONFIGURE OUTPUT "${OUTPUT_DIR}/version.txt" CONTENT "@BSPCHECK_VERSION@\n" @ONLY)
