# SPDX-License-Identifier: MIT
# Install rules: headers, the library with its soname links, pkg-config, the
# CMake package exporting bwgemm::bwgemm, and the Fortran module source.
include(CMakePackageConfigHelpers)

install(TARGETS bwgemm EXPORT bwgemmTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
# The self-check helper, where the library looks for it (dispatch/helper_check.h).
install(TARGETS bwgemm_self_check
  RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/bwgemm COMPONENT runtime)
install(DIRECTORY include/bwgemm DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
# Fortran .mod files are compiler-specific, so the module ships as source
# next to the C header; users compile it with their own compiler.
install(FILES bindings/fortran/bwgemm.f90
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bwgemm COMPONENT dev)

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
get_filename_component(BWGEMM_PC_CUDAROOT "${BWGEMM_CUBLAS_INCLUDE_DIR}/.." ABSOLUTE)
# The CUDA library directory (libcudart, libcublas), for the CUDA libraries a
# program calls itself: under ${cudaroot} when it is there, so that overriding
# cudaroot moves both.
file(RELATIVE_PATH _bwgemm_cudalib "${BWGEMM_PC_CUDAROOT}" "${CUDAToolkit_LIBRARY_DIR}")
if(_bwgemm_cudalib MATCHES "^\\.\\." OR IS_ABSOLUTE "${_bwgemm_cudalib}")
  set(BWGEMM_PC_CUDALIBDIR "${CUDAToolkit_LIBRARY_DIR}")
else()
  set(BWGEMM_PC_CUDALIBDIR "\${cudaroot}/${_bwgemm_cudalib}")
endif()
# The prefix is only known at install time (`cmake --install --prefix` may
# change it), so the template is filled in two steps: everything but the
# prefix now, the prefix when installing, straight into the destination.
function(bwgemm_pc_template out)
  set(CMAKE_INSTALL_PREFIX "@CMAKE_INSTALL_PREFIX@")
  configure_file(packaging/pkgconfig/bwgemm.pc.in ${out} @ONLY)
endfunction()
bwgemm_pc_template(${PROJECT_BINARY_DIR}/bwgemm.pc.install)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(_bwgemm_pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
else()
  set(_bwgemm_pc_dir "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endif()
install(CODE "
  set(_bwgemm_pc \"\$ENV{DESTDIR}${_bwgemm_pc_dir}/bwgemm.pc\")
  message(STATUS \"Installing: \${_bwgemm_pc}\")
  configure_file(\"${PROJECT_BINARY_DIR}/bwgemm.pc.install\" \"\${_bwgemm_pc}\" @ONLY)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${_bwgemm_pc}\")"
  COMPONENT dev)

set(BWGEMM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/bwgemm)
install(EXPORT bwgemmTargets NAMESPACE bwgemm:: DESTINATION ${BWGEMM_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(cmake/bwgemmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/bwgemmConfig.cmake INSTALL_DESTINATION ${BWGEMM_CMAKE_DIR})
# 0.x releases may add but never break within SOVERSION 0.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/bwgemmConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/bwgemmConfig.cmake ${PROJECT_BINARY_DIR}/bwgemmConfigVersion.cmake
  DESTINATION ${BWGEMM_CMAKE_DIR} COMPONENT dev)
