#pragma once
// The measurement readers (fitProfile, fitGpuProfile, fitLpuProfile, parseWaferKernelSet) read user
// files with nlohmann::json, whose value()/get() throw on a value of the wrong type. Each reader runs
// its body through guardedRead, so such a file is a Format error naming the type problem, never an
// exception into the caller (found by fuzz_measurements: "kind": [] ended the process).

#include "engine/core/error.h"

#include <nlohmann/json.hpp>

#include <string>

namespace ws {

template <typename Read> auto guardedRead(Read&& read) -> decltype(read())
{
    try {
        return read();
    } catch (const nlohmann::json::exception& e) {
        std::string what = e.what(); // "[json.exception.type_error.302] type must be string, but is array"
        if (const auto close = what.find("] "); what.rfind("[json.exception", 0) == 0 && close != std::string::npos)
            what.erase(0, close + 2);
        return makeError(ErrorCode::Format, "a field has the wrong type: " + what);
    }
}

} // namespace ws
