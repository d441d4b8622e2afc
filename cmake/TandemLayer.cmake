# tandem_layer(NAME <layer> [DEPS targets...] [TEST_DEPS targets...])
#
# One CMake library per top-level folder. Sources are every *.cpp below the
# folder except unit tests (*_test.cpp, linked into <layer>_tests beside the
# library and registered with ctest when TANDEM_WITH_TESTS) and fuzz targets (*_fuzz.cpp, built only
# with TANDEM_FUZZ). Includes are full paths from the repository root:
# #include "common/status.hpp".
function(tandem_layer)
  cmake_parse_arguments(L "" "NAME" "DEPS;TEST_DEPS" ${ARGN})
  file(GLOB_RECURSE all_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  set(lib_sources "")
  set(test_sources "")
  foreach(src ${all_sources})
    if(src MATCHES "_test\\.cpp$")
      list(APPEND test_sources ${src})
    elseif(src MATCHES "_fuzz\\.cpp$" OR src MATCHES "_main\\.cpp$")
    else()
      list(APPEND lib_sources ${src})
    endif()
  endforeach()
  set(target tandem_${L_NAME})
  if(lib_sources)
    add_library(${target} STATIC ${lib_sources})
    target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR})
    target_link_libraries(${target} PUBLIC ${L_DEPS})
  else()
    # A layer with headers only (so far).
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${PROJECT_SOURCE_DIR})
    target_link_libraries(${target} INTERFACE ${L_DEPS})
  endif()
  if(test_sources AND TANDEM_WITH_TESTS)
    add_executable(${L_NAME}_tests ${test_sources})
    target_link_libraries(${L_NAME}_tests PRIVATE ${target} ${L_TEST_DEPS} Catch2::Catch2WithMain)
    catch_discover_tests(${L_NAME}_tests TEST_PREFIX "${L_NAME}: ")
  endif()
endfunction()

# tandem_fuzz_target(<source> LIBS targets...)
#
# A libFuzzer executable named after <source> (foo_fuzz.cpp -> foo_fuzz),
# built only with TANDEM_FUZZ and only when asked for (EXCLUDE_FROM_ALL), with
# ASan and UBSan; undefined behaviour aborts, so the fuzzer reports it as a
# crash instead of printing and going on.
function(tandem_fuzz_target src)
  cmake_parse_arguments(F "" "" "LIBS" ${ARGN})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} EXCLUDE_FROM_ALL ${src})
  target_compile_options(${name} PRIVATE ${TANDEM_FUZZ_FLAGS})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(${name} PRIVATE ${F_LIBS})
endfunction()
