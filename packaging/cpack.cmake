# cpack.cmake: the Debian package, bsp-check_<version>_<arch>.deb, made by CPack's DEB generator
# from the project's install rules (`cpack -G DEB` in the build tree; packaging/README.md).
#
# It installs under /usr: the driver, bspcc/bspcxx, the headers, the libraries (runtime, level-1,
# Oxford level-1), the CMake package (find_package(BSPCheck) finds /usr/lib/cmake/BSPCheck without
# a CMAKE_PREFIX_PATH), the manual pages, the bash completion and the documentation.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME bsp-check)
set(CPACK_PACKAGE_VENDOR "bsp-check")
set(CPACK_PACKAGE_CONTACT "bsp-check maintainers <bsp-check@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "deterministic debugging and verification runtime for BSPlib programs")
string(CONCAT CPACK_PACKAGE_DESCRIPTION  # one string: set() would join the parts with ';'
    "bsp-check runs all the BSP processes of a BSPlib program as coroutines in one OS process, draws "
    "every nondeterministic choice BSPlib permits from one seed, and reports misuse of the library with "
    "the rule, the process, the superstep and the source line. It ships the bsp-check driver, the bspcc "
    "and bspcxx compiler wrappers, the BSPlib, MulticoreBSP for C, cBSP and BSPk headers, the runtime "
    "and level-1 libraries, and a CMake package (find_package(BSPCheck)).")
set(CPACK_PACKAGE_HOMEPAGE_URL "${BSPCHECK_INFORMATION_URI}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # <name>_<version>_<arch>.deb, Debian's own naming
# The shared libraries the binaries load (libc6, libstdc++6, the Boost libraries, ...) as Debian
# package names, found by dpkg-shlibdeps as Debian's own packages find theirs; the compilers that
# bspcc and bspcxx run are added by hand, as no binary links them.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "gcc, g++")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake, bash-completion")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)

# The version is the build's, remade at every build (version.cmake), not the one of the last
# configure: cpack reads it when it runs (cpack_version.cmake).
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_BSPCHECK_VERSION_FILE "${BSPCHECK_GENERATED_DIR}/version.txt")
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_CURRENT_LIST_DIR}/cpack_version.cmake")

# Only what a user installs: the build's test programs and benchmarks have no install rules, and
# the package is built from the full build tree, so no component split is needed.
set(CPACK_STRIP_FILES OFF)  # keep the debug information: crash backtraces name file and line
include(CPack)
