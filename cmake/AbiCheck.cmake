# SPDX-License-Identifier: MIT
# The ABI gate (abi/README.md): CTest tests abi_symbols (exported symbols
# against abi/libbwgemm.abilist, exactly), abi_baseline (abidiff against
# abi/libbwgemm.abi, exit code 0) and abi_linkage (the installed copy's
# DT_NEEDED, RPATH and version nodes). abi/update.sh regenerates abi/.

# Where abi/update.sh finds this build's library.
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/abi/library-path CONTENT "$<TARGET_FILE:bwgemm>\n")

if(BWGEMM_BUILD_TESTS)
  set(_bwgemm_abi_check ${PROJECT_SOURCE_DIR}/abi/check.sh)
  add_test(NAME abi_symbols COMMAND ${_bwgemm_abi_check} symbols $<TARGET_FILE:bwgemm>)
  find_program(BWGEMM_ABIDIFF abidiff)
  bwgemm_test_tool("abidiff (Debian abigail-tools)" BWGEMM_ABIDIFF)
  if(BWGEMM_ABIDIFF_USABLE)
    add_test(NAME abi_baseline COMMAND ${_bwgemm_abi_check} baseline $<TARGET_FILE:bwgemm>)
    # Skipped, with the reason, in a build without debug information.
    set_tests_properties(abi_baseline PROPERTIES LABELS "nogpu;abi" SKIP_RETURN_CODE 77)
  endif()
  add_test(NAME abi_linkage
    COMMAND ${_bwgemm_abi_check} installed ${PROJECT_BINARY_DIR} ${PROJECT_BINARY_DIR}/abi/stage
            ${CMAKE_INSTALL_LIBDIR} $<TARGET_FILE_NAME:bwgemm> libcublas.so.${BWGEMM_CUBLAS_MAJOR})
  set_tests_properties(abi_symbols abi_linkage PROPERTIES LABELS "nogpu;abi")
endif()
