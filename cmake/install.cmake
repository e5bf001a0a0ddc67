# install.cmake -- what `cmake --install` (and `make install PREFIX=...`) puts where:
#   bin/visa, lib/libvisa.so.0.1.0 (+ .so.0, .so links), lib/libvisa.a, include/visa/*.h,
#   lib/pkgconfig/visa.pc, lib/cmake/visa/ (find_package(visa): visa::visa shared,
#   visa::visa_static static), share/man/man1/visa.1, share/doc/visa/ (LICENSE, CHANGELOG.md,
#   README.md).
include(CMakePackageConfigHelpers)

install(TARGETS visa visa_shared visa-cli EXPORT visaTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/visa/visa.h ${CMAKE_BINARY_DIR}/include/visa/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/visa)

# CMake package
set(VISA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/visa)
install(EXPORT visaTargets NAMESPACE visa:: DESTINATION ${VISA_CMAKE_DIR})
configure_package_config_file(cmake/visaConfig.cmake.in ${CMAKE_BINARY_DIR}/visaConfig.cmake
                              INSTALL_DESTINATION ${VISA_CMAKE_DIR})
# 0.x: a new minor version may break the API
write_basic_package_version_file(${CMAKE_BINARY_DIR}/visaConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/visaConfig.cmake ${CMAKE_BINARY_DIR}/visaConfigVersion.cmake
        DESTINATION ${VISA_CMAKE_DIR})

# pkg-config: relocatable (prefix found from the .pc file's own place), so an install with
# `cmake --install --prefix DIR` into any DIR works
file(RELATIVE_PATH VISA_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" VISA_PC_TO_PREFIX "${VISA_PC_TO_PREFIX}")
# the static library's dependencies; not libLLVM: the compiled tier loads it at run time
set(VISA_PC_DL "")
foreach(lib ${CMAKE_DL_LIBS})
  string(APPEND VISA_PC_DL " -l${lib}")
endforeach()
configure_file(cmake/visa.pc.in ${CMAKE_BINARY_DIR}/visa.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/visa.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES docs/visa.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES LICENSE CHANGELOG.md README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
