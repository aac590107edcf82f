# Feeds skipcount.cmake made-up ctest logs and source trees: an unlisted skip must fail in CI (naming its
# test), be counted but pass outside CI (a row text with an unbalanced '[' hides no line); allow-listed skips
# pass in CI; QtTest totals above the SKIP lines fail; a bare QSKIP or a ctest-level skip in tests/ fails the
# tree check, the two macros do not.
file(REMOVE_RECURSE ${WORK})

# A LastTest.log as ctest writes it (only the lines skipcount reads matter; the rest is there to be ignored).
# Each argument is "<test>|<skip message>|..."; "{", "}" and "<sc>" stand for square brackets and a semicolon,
# which a CMake list argument cannot carry as they are.
function(write_log path)
    set(text "Start testing: Dec 03 16:11 UTC\n----------------------------------------------------------\n")
    foreach(entry IN LISTS ARGN)
        string(REPLACE "|" ";" parts "${entry}")
        list(POP_FRONT parts test)
        string(APPEND text "7/140 Testing: ${test}\n7/140 Test: ${test}\nCommand: \"/b/${test}\"\nOutput:\n"
               "----------------------------------------------------------\n"
               "********* Start testing of X *********\nPASS   : X::initTestCase()\n")
        set(n 0)
        foreach(skip IN LISTS parts)
            string(APPEND text "SKIP   : X::f(row) ${skip}\n   Loc: [/src/x.cpp(12)]\n")
            math(EXPR n "${n} + 1")
        endforeach()
        if(DEFINED TOTALS_EXTRA)
            math(EXPR n "${n} + ${TOTALS_EXTRA}")
        endif()
        string(APPEND text "Totals: 1 passed, 0 failed, ${n} skipped, 0 blacklisted, 5ms\n"
               "********* Finished testing of X *********\n<end of output>\nTest time =   0.10 sec\n"
               "----------------------------------------------------------\nTest Passed.\n")
    endforeach()
    string(REPLACE "{" "[" text "${text}")
    string(REPLACE "}" "]" text "${text}")
    string(REPLACE "<sc>" ";" text "${text}")
    file(WRITE ${path} "${text}")
endfunction()

function(run_check out_rc out_text)
    execute_process(COMMAND ${CMAKE_COMMAND} ${ARGN} -P ${CHECK} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
    set(${out_rc} ${rc} PARENT_SCOPE)
    set(${out_text} "${o}${e}" PARENT_SCOPE)
endfunction()

function(expect text what)
    string(FIND "${text}" "${what}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "skipcount.cmake did not print \"${what}\":\n${text}")
    endif()
endfunction()

write_log(${WORK}/mixed.log
    "tst_generator|[ws-skip:sparse-file] this filesystem cannot hold a sparse file that large"
    "tst_tokenizer|model missing (set it) in row '{x ü — a<sc>b'"
    "tst_forward|[ws-skip:missing] test model missing: /m/stories260K.gguf|[ws-skip:no-mount] no tmpfs")

run_check(rc out -DLOG=${WORK}/mixed.log -DALLOW=${ALLOW} -DCI=true)
if(rc EQUAL 0)
    message(FATAL_ERROR "skipcount.cmake passed an unlisted skip in CI:\n${out}")
endif()
expect("${out}" "skips: 4 skipped: sparse-file 1 (allowed), untagged 1, missing 1, no-mount 1 (allowed)")
expect("${out}" "skips: 2 not in the allow-list")
string(ASCII 59 semicolon)
expect("${out}" "tst_tokenizer: SKIP   : X::f(row) model missing (set it) in row '[x ü — a${semicolon}b'")
expect("${out}" "tst_forward: SKIP   : X::f(row) [ws-skip:missing] test model missing: /m/stories260K.gguf")
string(FIND "${out}" "tst_generator: SKIP" at)
if(NOT at EQUAL -1)
    message(FATAL_ERROR "skipcount.cmake refused an allow-listed skip:\n${out}")
endif()

run_check(rc out -DLOG=${WORK}/mixed.log -DALLOW=${ALLOW} -DCI=)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "skipcount.cmake failed outside CI:\n${out}")
endif()
expect("${out}" "skips: 4 skipped")
expect("${out}" "2 not in the allow-list (a failure in CI)")

write_log(${WORK}/allowed.log "tst_savefaults|[ws-skip:no-mount] no tmpfs|[ws-skip:remount-busy] busy" "tst_plain")
run_check(rc out -DLOG=${WORK}/allowed.log -DALLOW=${ALLOW} -DCI=true)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "skipcount.cmake failed allow-listed skips in CI:\n${out}")
endif()
expect("${out}" "skips: 2 skipped: no-mount 1 (allowed), remount-busy 1 (allowed)")

write_log(${WORK}/none.log "tst_plain" "tst_other")
run_check(rc out -DLOG=${WORK}/none.log -DALLOW=${ALLOW} -DCI=true)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "skipcount.cmake failed a run without skips:\n${out}")
endif()
expect("${out}" "skips: 0 skipped\n")

run_check(rc out -DLOG=${WORK}/absent.log -DALLOW=${ALLOW} -DCI=true)
if(rc EQUAL 0)
    message(FATAL_ERROR "skipcount.cmake passed without a log:\n${out}")
endif()

# QtTest counts a skip the log has no SKIP line for: the count cannot be trusted.
set(TOTALS_EXTRA 1)
write_log(${WORK}/hidden.log "tst_plain|[ws-skip:no-mount] no tmpfs")
unset(TOTALS_EXTRA)
run_check(rc out -DLOG=${WORK}/hidden.log -DALLOW=${ALLOW} -DCI=)
if(rc EQUAL 0)
    message(FATAL_ERROR "skipcount.cmake passed a log whose QtTest totals exceed its SKIP lines:\n${out}")
endif()
expect("${out}" "QtTest's totals say 2 skipped")

# The tree check.
file(WRITE ${WORK}/bare/tests/engine/tst_a.cpp "void f()\n{\n    if (x)\n        QSKIP(\"model missing\");\n}\n")
file(WRITE ${WORK}/bare/tests/app/CMakeLists.txt "set_tests_properties(t PROPERTIES SKIP_RETURN_CODE 77)\n")
file(WRITE ${WORK}/bare/tests/app/tst_b.cpp "void g()\n{\n    WS_REQUIRE_MODEL_FILE(path);\n    WS_SKIP(kSparseFile, d);\n}\n")
run_check(rc out -DSOURCE=${WORK}/bare)
if(rc EQUAL 0)
    message(FATAL_ERROR "skipcount.cmake passed a tree with a bare QSKIP:\n${out}")
endif()
expect("${out}" "tests/engine/tst_a.cpp: QSKIP(\"model missing\");")
expect("${out}" "tests/app/CMakeLists.txt: set_tests_properties(t PROPERTIES SKIP_RETURN_CODE 77)")
string(FIND "${out}" "tst_b.cpp" at)
if(NOT at EQUAL -1)
    message(FATAL_ERROR "skipcount.cmake reported the two macros as bare skips:\n${out}")
endif()
file(REMOVE ${WORK}/bare/tests/engine/tst_a.cpp ${WORK}/bare/tests/app/CMakeLists.txt)
run_check(rc out -DSOURCE=${WORK}/bare)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "skipcount.cmake failed a tree with only the two macros:\n${out}")
endif()
