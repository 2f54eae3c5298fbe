# BSPCheckTesting.cmake: CTest gates that run BSPlib programs under bsp-check.
#
#   find_package(BSPCheck REQUIRED)        # includes this file; or include(BSPCheckTesting) in
#   enable_testing()                       # the bsp-check build tree itself
#   bspcheck_add_test(NAME ring COMMAND ring_prog arg1 PROCS 1 2 3 4 8 SEEDS 100)
#
# registers one CTest test per processor count, named <NAME>.p<P>, running
#
#   bsp-check run -q -p <P> --seed <SEED> --seeds <SEEDS> --junit <dir>/<NAME>.p<P>.xml \
#                 [--sarif <dir>/<NAME>.p<P>.sarif] [extra options] <prog> <args...>
#
# which fails (exit status 1) when any run of the program fails or bsp-check reports an error
# finding (with WERROR, a warning too). COMMAND's first word may be a target (its file is used)
# or a path. The JUnit (and SARIF) files go to BSPCHECK_TEST_REPORT_DIR (default
# <build>/bspcheck-reports) for a CI job to upload.
#
# Arguments:
#   NAME n                 test name prefix (required)
#   COMMAND prog [args]    the program and its arguments (required)
#   PROCS p...             processor counts, one test each (default 1 2 3 4 8)
#   SEEDS n                schedules per processor count (default 20)
#   SEED s                 first seed (default 1)
#   SHARDS n               split each processor count's seeds into n tests, <NAME>.p<P>.s<I>, each
#                          running `--shard I/n` of them, so that `ctest -j` runs them in parallel
#   STRATEGY s             random (default) or round_robin
#   TIMEOUT sec            per-run timeout given to bsp-check (--timeout); the CTest TIMEOUT of
#                          each test is left to CTest's default unless CTEST_TIMEOUT is given
#   CTEST_TIMEOUT sec      CTest's TIMEOUT property of each test
#   WERROR                 warnings fail the test too
#   SARIF                  also write a SARIF file per test, its file names relative to SOURCE_ROOT
#   SOURCE_ROOT dir        the SARIF's %SRCROOT% (--source-root; default CMAKE_SOURCE_DIR, the
#                          checkout, since the tests run in the build directory)
#   NO_JUNIT               do not write JUnit files
#   BSPCHECK_ARGS a...     more bsp-check options (e.g. --disable put-collision, --stack-size 1m)
#   LABELS l...            CTest labels (default: bspcheck)
#   WORKING_DIRECTORY dir  where the test runs
#
# bsp-check is found as: the bsp-check target when it exists (the bsp-check build tree), else
# BSPCHECK_EXECUTABLE (set by BSPCheckConfig.cmake to the installed one), else find_program.
include_guard(GLOBAL)

set(BSPCHECK_TEST_REPORT_DIR "${CMAKE_BINARY_DIR}/bspcheck-reports" CACHE PATH
    "Where bspcheck_add_test tests write their JUnit and SARIF files")

function(bspcheck_add_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "WERROR;SARIF;NO_JUNIT"
                        "NAME;SEEDS;SEED;SHARDS;STRATEGY;TIMEOUT;CTEST_TIMEOUT;WORKING_DIRECTORY;SOURCE_ROOT"
                        "COMMAND;PROCS;BSPCHECK_ARGS;LABELS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "bspcheck_add_test: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME)
    message(FATAL_ERROR "bspcheck_add_test: NAME is required")
  endif()
  if(NOT arg_COMMAND)
    message(FATAL_ERROR "bspcheck_add_test(${arg_NAME}): COMMAND is required")
  endif()
  if(NOT arg_PROCS)
    set(arg_PROCS 1 2 3 4 8)
  endif()
  if(NOT arg_SEEDS)
    set(arg_SEEDS 20)
  endif()
  if(NOT arg_SEED)
    set(arg_SEED 1)
  endif()
  if(NOT arg_LABELS)
    set(arg_LABELS bspcheck)
  endif()
  if(NOT arg_SHARDS)
    set(arg_SHARDS 1)
  endif()
  if(NOT arg_SOURCE_ROOT)
    set(arg_SOURCE_ROOT "${CMAKE_SOURCE_DIR}")
  endif()
  if(NOT arg_SHARDS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "bspcheck_add_test(${arg_NAME}): SHARDS must be a whole number from 1, got '${arg_SHARDS}'")
  endif()

  # The driver.
  if(TARGET bsp-check)
    set(driver "$<TARGET_FILE:bsp-check>")
  elseif(BSPCHECK_EXECUTABLE)
    set(driver "${BSPCHECK_EXECUTABLE}")
  else()
    find_program(BSPCHECK_EXECUTABLE bsp-check)
    if(NOT BSPCHECK_EXECUTABLE)
      message(FATAL_ERROR "bspcheck_add_test(${arg_NAME}): bsp-check not found; set BSPCHECK_EXECUTABLE "
                          "or use find_package(BSPCheck)")
    endif()
    set(driver "${BSPCHECK_EXECUTABLE}")
  endif()

  # The program: a target's file, or the word as given.
  list(POP_FRONT arg_COMMAND prog)
  if(TARGET ${prog})
    set(prog "$<TARGET_FILE:${prog}>")
  endif()

  set(options -q --seed ${arg_SEED} --seeds ${arg_SEEDS})
  if(arg_STRATEGY)
    list(APPEND options --strategy ${arg_STRATEGY})
  endif()
  if(arg_TIMEOUT)
    list(APPEND options --timeout ${arg_TIMEOUT})
  endif()
  if(arg_WERROR)
    list(APPEND options --werror)
  endif()
  list(APPEND options ${arg_BSPCHECK_ARGS})

  file(MAKE_DIRECTORY "${BSPCHECK_TEST_REPORT_DIR}")
  math(EXPR last_shard "${arg_SHARDS} - 1")
  foreach(p IN LISTS arg_PROCS)
   foreach(shard RANGE ${last_shard})
    set(test "${arg_NAME}.p${p}")
    set(shard_options)
    if(arg_SHARDS GREATER 1)
      set(test "${arg_NAME}.p${p}.s${shard}")
      set(shard_options --shard ${shard}/${arg_SHARDS})
    endif()
    set(reports)
    if(NOT arg_NO_JUNIT)
      list(APPEND reports --junit "${BSPCHECK_TEST_REPORT_DIR}/${test}.xml")
    endif()
    if(arg_SARIF)
      list(APPEND reports --sarif "${BSPCHECK_TEST_REPORT_DIR}/${test}.sarif" --source-root "${arg_SOURCE_ROOT}")
    endif()
    if(arg_WORKING_DIRECTORY)
      add_test(NAME ${test} COMMAND ${driver} run -p ${p} ${options} ${shard_options} ${reports} ${prog} ${arg_COMMAND}
               WORKING_DIRECTORY ${arg_WORKING_DIRECTORY})
    else()
      add_test(NAME ${test} COMMAND ${driver} run -p ${p} ${options} ${shard_options} ${reports} ${prog} ${arg_COMMAND})
    endif()
    set_tests_properties(${test} PROPERTIES LABELS "${arg_LABELS}")
    if(arg_CTEST_TIMEOUT)
      set_tests_properties(${test} PROPERTIES TIMEOUT ${arg_CTEST_TIMEOUT})
    endif()
   endforeach()
  endforeach()
endfunction()
