#pragma once
// The measurement readers (fitProfile, fitGpuProfile, fitLpuProfile, parseWaferKernelSet) read user
// files with nlohmann::json, whose value()/get() throw on a value of the wrong type. Each reader runs
// its body through guardedRead, so such a file is a Format error naming the type problem, never an
// exception into the caller (found by fuzz_measurements: "kind": [] ended the process).

#include "engine/core/error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace ws {

// The header every measurement file shares: a JSON object of one `kind` with a non-empty `id` and a `source`
// (each required unless the rows carry their own) and a `description`, and an array of `rows` (not empty unless
// allowed). The one reader of it: each kind's reader (wafer kernels, wafer prefill, GPU, LPU, API prices)
// checks the header here and reads its own rows.
struct MeasurementHeader
{
    std::string id;
    std::string source;
    std::string description;
};

struct MeasurementHeaderRules
{
    bool idRequired = true;
    bool sourceRequired = true;
    bool emptyRowsAllowed = false;
};

Expected<MeasurementHeader> readMeasurementHeader(const nlohmann::json& j, std::string_view kind,
                                                  MeasurementHeaderRules rules = {});

// nlohmann's get<int>() of a floating-point number is a plain cast, undefined past the type's range (a
// concurrency of 1e117 in a user's file): the rows' integer fields (grid, gpus, chips, concurrency, context, ...)
// written with a fraction or exponent must fit their type before a reader reads them. Integers written as
// integers convert without undefined behaviour. Every measurement reader checks its rows here first.
Status integerFieldsFit(const nlohmann::json& row, const std::string& where);

// The longest context a measurement row may state (about a billion tokens): a context near 2^63 fits int64_t
// but its KV cache bytes do not (fuzz_measurements: 7.8e18 x 2048 overflowed in ModelShape::layerKvBytes).
inline constexpr int64_t kMaxMeasuredContext = int64_t(1) << 30;

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
