# cpack_version.cmake: read by cpack when it runs (CPACK_PROJECT_CONFIG_FILE): the package takes
# the version the build last generated (packaging/version.cmake), which a commit since the last
# configure has changed.
file(STRINGS "${CPACK_BSPCHECK_VERSION_FILE}" bspcheck_version LIMIT_COUNT 1)
set(CPACK_PACKAGE_VERSION "${bspcheck_version}")
set(CPACK_DEBIAN_PACKAGE_VERSION "${bspcheck_version}")
