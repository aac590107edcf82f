#pragma once
// A serving stack as a named, dated profile: the software a service or a
// research system runs on some hardware (wafer kernels' efficiency,
// speculative decoding, the GPU calibration profile it was measured as),
// what is known about it and what is assumed, and the month it became
// public. "As of" a month, each hardware preset is predicted with the latest
// of its profiles public by then: a figure published in 2024 is judged
// against the 2024 stack, one from 2025 against the stack of 2025. The
// profiles are the "stack-profiles" file resources/measurements/stacks.json
// (embedded in the engine). A wafer stack's kernel factor scales the fitted
// software constants of the WaferLLM profile; "fit" leaves it to be fitted on
// the development rows it names (engine/predict/stackkernel.h).
//
// Months are integers yyyy * 12 + (mm - 1) (YearMonth), so comparisons are
// plain integer comparisons.

#include "engine/core/error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

using YearMonth = int; // year * 12 + month - 1

// "2024-10" (or "2024-10-24") -> the month; a year alone ("2025", "2025 (OSDI 2025)", "~early 2024") -> its
// last month, the latest month the figure can have been public by; "n/s" or no year -> nullopt (undated).
std::optional<YearMonth> parseYearMonth(std::string_view text);
std::string yearMonthText(YearMonth m); // "2024-10"

struct StackProfile
{
    std::string id;
    std::string name;
    std::string deviceKind;            // "wafer", "gpu", "lpu"
    std::vector<std::string> hardware; // hardware preset ids it runs on
    YearMonth publicMonth = 0;
    std::string dateSource; // where the date comes from
    std::string known;
    std::string assumed;
    std::string source;
    // Wafers: the factor on the WaferLLM profile's fitted software constants; fitKernel: fitted on fitRows.
    double kernelFactor = 1.0;
    bool fitKernel = false;
    std::vector<std::string> fitRows; // "set id/row label" of development or calibration rows
    bool speculative = false;         // the stack runs speculative decoding (sourced defaults, engine/predict)
    // Its draft: false, the default draft preset (speculative.h); true ("one-layer"), one decoder layer of the
    // target reusing its LM head (EAGLE), 1 / layers of a target token.
    bool oneLayerDraft = false;
    std::string gpuProfile; // GPUs: the calibration profile that measured this stack

    bool runsOn(std::string_view hardwareId) const;
};

// Reads a "stack-profiles" file. Errors name the profile and field.
Expected<std::vector<StackProfile>> readStackProfiles(const std::string& jsonText);

// The shipped profiles (resources/measurements/stacks.json), read once; an error when the file fails to read.
const Expected<std::vector<StackProfile>>& shippedStackProfiles();

// The profile a hardware preset is predicted with as of a month (nullopt: the latest): the latest of its
// profiles public by then; before its first, the first (a prediction says so). Null when none names it.
const StackProfile* stackFor(std::string_view hardwareId, std::optional<YearMonth> asOf);

// The shipped stack measured as this GPU calibration profile; null when none.
const StackProfile* stackOfGpuProfile(std::string_view gpuProfileId);
// True when a shipped stack names this GPU calibration profile and became public after `asOf`.
bool gpuProfileAfter(std::string_view gpuProfileId, YearMonth asOf);

} // namespace ws
