# The throwaway MariaDB server as a ctest fixture, and the function that declares a test
# needing it. Included by every folder with `mariadb` tests; the first include defines both.
#
#   mariadb_server_start   FIXTURES_SETUP mariadb: scripts/mariadb start --settings FILE
#   mariadb_server_stop    FIXTURES_CLEANUP mariadb: scripts/mariadb stop --settings FILE
#
# ctest adds both to any selection holding a `mariadb` test (ctest -L mariadb, -R Store...), so
# a fresh tree needs no server started by hand. A server that does not start fails the setup,
# and ctest then fails every test that requires it. The tests read FILE through
# GEMINI_ORACLE_MARIADB_SETTINGS (tests/mariadb_settings.h); exported GEMINI_ORACLE_MARIADB_*
# variables take precedence.
include_guard(GLOBAL)

set(GEMINI_ORACLE_MARIADB_SETTINGS_FILE ${CMAKE_BINARY_DIR}/mariadb-settings.env)

add_test(NAME mariadb_server_start
  COMMAND ${PROJECT_SOURCE_DIR}/scripts/mariadb start --settings ${GEMINI_ORACLE_MARIADB_SETTINGS_FILE})
set_tests_properties(mariadb_server_start PROPERTIES
  FIXTURES_SETUP mariadb LABELS mariadb TIMEOUT 120)
add_test(NAME mariadb_server_stop
  COMMAND ${PROJECT_SOURCE_DIR}/scripts/mariadb stop --settings ${GEMINI_ORACLE_MARIADB_SETTINGS_FILE})
set_tests_properties(mariadb_server_stop PROPERTIES
  FIXTURES_CLEANUP mariadb LABELS mariadb TIMEOUT 120)

# gemini_oracle_test() for a test against the server: label `mariadb`, the fixture, the file
# (spelled out: the variable above exists only in the folder that included this first).
function(gemini_oracle_mariadb_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gtest GTest::gmock GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE GEMINI_ORACLE_TEST_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  gtest_discover_tests(${name}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES LABELS mariadb FIXTURES_REQUIRED mariadb TIMEOUT ${T_TIMEOUT}
      ENVIRONMENT "GEMINI_ORACLE_MARIADB_SETTINGS=${CMAKE_BINARY_DIR}/mariadb-settings.env"
    DISCOVERY_TIMEOUT 30)
endfunction()
