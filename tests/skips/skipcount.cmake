# Skipped tests, counted and checked against the allow-list (tests/common/testskips.h, namespace allowedskip).
#
#   cmake -DLOG=<build>/Testing/Temporary/LastTest.log -DALLOW=<checkout>/tests/common/testskips.h [-DCI=true]
#         -P skipcount.cmake
# counts the QtTest SKIP lines of a ctest run (ctest keeps every test's whole output in LastTest.log, passed
# tests' too; a QSKIP inside a test function leaves the executable passing, so ctest itself cannot tell), by
# tag ([ws-skip:<tag>], testskips.h), and prints one line: "skips: <n> skipped ...". With CI=true (default:
# the environment's CI) a skip whose tag is not in the allow-list (untagged, or "missing") fails, each named
# with its ctest test.
#
#   cmake -DSOURCE=<checkout> -P skipcount.cmake
# checks the tree instead: no QSKIP in tests/ but testskips.h's two macros, and no ctest-level skip
# (SKIP_RETURN_CODE, SKIP_REGULAR_EXPRESSION), which LastTest.log would record as passed.
cmake_minimum_required(VERSION 3.25)

if(DEFINED SOURCE)
    get_filename_component(SOURCE "${SOURCE}" ABSOLUTE)
    file(GLOB_RECURSE files RELATIVE "${SOURCE}" "${SOURCE}/tests/*.cpp" "${SOURCE}/tests/*.h"
         "${SOURCE}/tests/*CMakeLists.txt" "${SOURCE}/tests/*.cmake")
    set(found "")
    foreach(f IN LISTS files)
        if(f STREQUAL "tests/common/testskips.h" OR f STREQUAL "tests/skips/skipcount.cmake"
           OR f STREQUAL "tests/skips/detects.cmake")
            continue()
        endif()
        file(STRINGS "${SOURCE}/${f}" hits ENCODING UTF-8 REGEX "QSKIP *\\(|SKIP_RETURN_CODE|SKIP_REGULAR_EXPRESSION")
        foreach(h IN LISTS hits)
            string(STRIP "${h}" h)
            string(APPEND found "  ${f}: ${h}\n")
        endforeach()
    endforeach()
    if(found)
        message(FATAL_ERROR "skips outside WS_REQUIRE / WS_SKIP (tests/common/testskips.h):\n${found}")
    endif()
    list(LENGTH files n)
    message("skipcount: ${n} files under tests/, no bare skip")
    return()
endif()

foreach(v LOG ALLOW)
    if(NOT DEFINED ${v} OR NOT EXISTS "${${v}}")
        message(FATAL_ERROR "skipcount: ${v} (${${v}}) is not a file")
    endif()
endforeach()
if(NOT DEFINED CI)
    set(CI "$ENV{CI}")
endif()

# The allow-list: the tags of the `inline constexpr char kName[] = "tag";` lines inside namespace allowedskip.
file(STRINGS "${ALLOW}" header)
set(allowed "")
set(inside FALSE)
foreach(line IN LISTS header)
    if(line MATCHES "^namespace allowedskip")
        set(inside TRUE)
    elseif(inside AND line MATCHES "^} // namespace allowedskip")
        set(inside FALSE)
    elseif(inside AND line MATCHES "^inline constexpr char k[A-Za-z0-9]+\\[\\] = \"([a-z0-9-]+)\";")
        list(APPEND allowed "${CMAKE_MATCH_1}")
    endif()
endforeach()
if(NOT allowed)
    message(FATAL_ERROR "skipcount: no allow-list (namespace allowedskip) in ${ALLOW}")
endif()

# The log's bytes as they are (file(STRINGS) would cut lines at bytes outside ASCII, as a data row's text
# has). Square brackets and semicolons in a list element (a row's text) would join or split elements: stand-ins
# take their place until a line is printed.
file(READ "${LOG}" text)
string(REPLACE "[" "<ws:lb>" text "${text}")
string(REPLACE "]" "<ws:rb>" text "${text}")
string(REPLACE ";" "<ws:sc>" text "${text}")
string(REGEX MATCHALL "\n([0-9]+/[0-9]+ Test: |SKIP   : |Totals: )[^\n]*" lines "\n${text}")
set(test "?")
set(total 0)
set(totals 0)
set(refused 0)
set(refusedText "")
set(tags "")
foreach(line IN LISTS lines)
    string(SUBSTRING "${line}" 1 -1 line) # the newline before it
    if(line MATCHES "^[0-9]+/[0-9]+ Test: (.*)$")
        set(test "${CMAKE_MATCH_1}")
        continue()
    elseif(line MATCHES "^Totals: .*, ([0-9]+) skipped,")
        math(EXPR totals "${totals} + ${CMAKE_MATCH_1}")
        continue()
    endif()
    math(EXPR total "${total} + 1")
    set(tag "untagged")
    if(line MATCHES "<ws:lb>ws-skip:([a-z0-9-]+)<ws:rb>")
        set(tag "${CMAKE_MATCH_1}")
    endif()
    list(APPEND tags "${tag}")
    if(NOT tag IN_LIST allowed)
        math(EXPR refused "${refused} + 1")
        string(REPLACE "<ws:lb>" "[" line "${line}")
        string(REPLACE "<ws:rb>" "]" line "${line}")
        string(REPLACE "<ws:sc>" ";" line "${line}")
        string(APPEND refusedText "  ${test}: ${line}\n")
    endif()
endforeach()
# QtTest's own count ("Totals: ... N skipped", one line per executable) cannot exceed the SKIP lines read.
if(totals GREATER total)
    message(FATAL_ERROR "skipcount: QtTest's totals say ${totals} skipped, but ${LOG} has ${total} SKIP lines")
endif()

# "<tag> <count>" for each tag seen, allow-listed ones first.
set(summary "")
list(REMOVE_DUPLICATES allowed)
set(seen ${tags})
list(REMOVE_DUPLICATES seen)
foreach(tag IN LISTS seen)
    set(n 0)
    foreach(t IN LISTS tags)
        if(t STREQUAL tag)
            math(EXPR n "${n} + 1")
        endif()
    endforeach()
    if(tag IN_LIST allowed)
        list(APPEND summary "${tag} ${n} (allowed)")
    else()
        list(APPEND summary "${tag} ${n}")
    endif()
endforeach()
list(JOIN summary ", " summary)
if(summary)
    set(summary ": ${summary}")
endif()
message("skips: ${total} skipped${summary}")
if(refused GREATER 0)
    if(CI STREQUAL "true")
        message(FATAL_ERROR "skips: ${refused} not in the allow-list (tests/common/testskips.h), which CI refuses:\n"
                            "${refusedText}")
    endif()
    message("skips: ${refused} not in the allow-list (a failure in CI):\n${refusedText}")
endif()
