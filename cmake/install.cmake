# SPDX-License-Identifier: MIT
# Install rules: headers, the library with its soname links, pkg-config and
# the CMake package exporting bwgemm::bwgemm.
include(CMakePackageConfigHelpers)

install(TARGETS bwgemm EXPORT bwgemmTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
install(DIRECTORY include/bwgemm DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)

# pkg-config: absolute install dirs are written verbatim, relative ones under
# ${prefix}. CUDA ships no .pc files here, so its include dir is a variable a
# packager can override with --define-variable=cudaroot=...
foreach(kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
    set(BWGEMM_PC_${kind} "${CMAKE_INSTALL_${kind}}")
  else()
    set(BWGEMM_PC_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
  endif()
endforeach()
get_filename_component(BWGEMM_PC_CUDAROOT "${CUDAToolkit_INCLUDE_DIRS}/.." ABSOLUTE)
configure_file(packaging/pkgconfig/bwgemm.pc.in ${PROJECT_BINARY_DIR}/bwgemm.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/bwgemm.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

set(BWGEMM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/bwgemm)
install(EXPORT bwgemmTargets NAMESPACE bwgemm:: DESTINATION ${BWGEMM_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(cmake/bwgemmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/bwgemmConfig.cmake INSTALL_DESTINATION ${BWGEMM_CMAKE_DIR})
# 0.x releases may add but never break within SOVERSION 0.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/bwgemmConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/bwgemmConfig.cmake ${PROJECT_BINARY_DIR}/bwgemmConfigVersion.cmake
  DESTINATION ${BWGEMM_CMAKE_DIR} COMPONENT dev)
