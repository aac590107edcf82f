# Runs tsan_probe twice under the test's TSAN_OPTIONS (the tsan preset's, with tests/tsan.supp): an unordered
# increment of ours on Qt's thread pool and on the main thread must fail and name our function; the same run
# with the increments under a mutex must pass.
execute_process(COMMAND ${PROBE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
    message(FATAL_ERROR "ThreadSanitizer let a race of ours pass (exit 0):\n${out}${err}")
endif()
foreach(expected "WARNING: ThreadSanitizer: data race" "incrementTheCounterOfOurs")
    string(FIND "${err}" "${expected}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the race report lacks '${expected}' (exit ${rc}):\n${out}${err}")
    endif()
endforeach()
execute_process(COMMAND ${PROBE} --clean RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tsan_probe --clean failed (exit ${rc}): a report the suppressions do not cover:\n${out}${err}")
endif()
