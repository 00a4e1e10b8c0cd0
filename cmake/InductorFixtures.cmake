# The recorded Inductor runs of tests/data/inductor (tests and benchmarks read them).
# tests/data/inductor/*.tar.xz: Inductor runs recorded on an H200 (scripts/record-inductor-fixtures.py),
# each an Inductor cache with its Triton folders and recorded.json (what Triton and the driver
# reported). Unpacked into the build tree at configure time, again when an archive changes.
set(OCCX_INDUCTOR_FIXTURES_DIR ${CMAKE_BINARY_DIR}/test-data/inductor)
file(GLOB OCCX_INDUCTOR_ARCHIVES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/data/inductor/*.tar.xz)
foreach(archive ${OCCX_INDUCTOR_ARCHIVES})
  get_filename_component(fixture ${archive} NAME_WE)
  set(stamp ${OCCX_INDUCTOR_FIXTURES_DIR}/${fixture}.stamp)
  if(NOT EXISTS ${stamp} OR ${archive} IS_NEWER_THAN ${stamp})
    file(REMOVE_RECURSE ${OCCX_INDUCTOR_FIXTURES_DIR}/${fixture})
    file(ARCHIVE_EXTRACT INPUT ${archive} DESTINATION ${OCCX_INDUCTOR_FIXTURES_DIR})
    file(TOUCH ${stamp})
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${archive})
endforeach()

