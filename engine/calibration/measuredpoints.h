#pragma once
// Published or measured decode figures as points to show beside predictions.
// One reader for every measurement file: the calibration kinds ("gpu", "lpu",
// "wafer-kernel" and "wafer-prefill" rows that name a model preset) give fitted points, the
// "reference" kind gives rows the predictors are never fitted on, and a
// user's own file (same format) gives user points.
//
// Every row has a role in the validation protocol (docs/validation.md):
// calibration (fitted), development (looked at while modelling) or check (frozen
// with its hash before the model change judged against it, never looked at while
// modelling). A reference file states its role; a calibration file's fitted rows
// are calibration rows and its rows left out of the fit ("fit": false) are
// development rows that share the file. A row that shares a source, a run or a
// table with calibration rows says so ("shares": the calibration file id, or
// "file id/row label") and can never be a check row: the reader rejects a check
// file with such a row, and the shipped loader rejects a check row whose source
// cites an address or a [citation key] a calibration row cites. Each point carries what it
// was measured with (model and hardware presets, device count when known,
// precision, concurrency, context or prompt/output lengths), its source and
// date, and whether speculative decoding or an unstated batch may be behind
// it. matchesPrediction says whether a point belongs on a chart of a
// prediction (same model, hardware and configuration).

#include "engine/core/error.h"
#include "engine/model/precision.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

enum class MeasuredOrigin
{
    Calibration,
    Reference,
    User
};
enum class Tristate
{
    No,
    Yes,
    Unknown
};

enum class MeasuredRole
{
    Calibration,
    Development,
    Check
};

std::string_view measuredOriginId(MeasuredOrigin o); // "calibration", "reference", "user"
std::string_view measuredRoleId(MeasuredRole r);     // "calibration", "development", "check"
std::optional<MeasuredRole> parseMeasuredRole(std::string_view id);
std::string_view tristateId(Tristate t); // "no", "yes", "unknown"

struct MeasuredPoint
{
    MeasuredOrigin origin = MeasuredOrigin::Reference;
    MeasuredRole role = MeasuredRole::Development;
    // The calibration files (ids) or rows ("file id/row label") this row shares a source, run or table with.
    std::vector<std::string> shares;
    // False for a check row that names a model or hardware preset not shipped (yet): it is attempted and, until
    // the preset exists, not predicted (a miss). Every other row names shipped presets.
    bool presetsKnown = true;
    std::string deviceKind; // "wafer", "gpu" or "lpu": the hardware preset's kind, or the row's own when unknown
    std::string set;        // the file's id
    std::string label;
    std::string modelId;                // model preset
    std::string hardwareId;             // hardware preset
    int devices = 0;                    // wafers, GPUs or chips; 0: not stated
    std::optional<Precision> precision; // absent: not stated
    int concurrency = 1;
    bool batchKnown = true; // false: a service that may batch other users' requests beside this one
    Tristate speculative = Tristate::No;
    // With speculative "yes", what the source gives (else the sourced defaults, engine/predict/speculative.h):
    // the draft model preset, or a draft token's cost as a fraction of a target token; k; the acceptance rate.
    std::string draftModelId;
    double draftCostFraction = 0; // 0: not given
    int draftTokens = 0;          // 0: not given
    double acceptanceRate = 0;    // 0: not given
    int64_t contextTokens = 0;    // decode-only rows: tokens in the KV cache; 0 with prompt/output
    int64_t promptTokens = 0;
    int64_t outputTokens = 0;
    // "tokens_per_second_per_user", "aggregate_tokens_per_second", or "end_to_end_tokens_per_second_per_user"
    // (output tokens over the whole request, prefill included: output / (TTFT + output x token time)), or
    // "prefill_tokens_per_second" (prompt tokens / prefill time; "wafer-prefill" calibration rows).
    std::string metric = "tokens_per_second_per_user";
    double value = 0;
    std::string configuration; // as the source states it
    std::string source;
    std::string date;
    std::string note;    // assumptions
    std::string doubt;   // why the figure itself is doubtful (left out of the headline statistics)
    bool fitted = false; // calibration rows the fit used
    // Wafers, WaferLLM's policy: every layer timed on its own P x P region of cores (0: not stated, the
    // placer's regions). A prefill side apart from the decode side where the source names both.
    int decodeGrid = 0;
    int prefillGrid = 0;

    // Decode speed per user where the metric gives it (aggregate / concurrency); 0 for end-to-end and prefill rows.
    double tokensPerSecondPerUser() const;
};

// Reads one measurement file of any kind. `origin` is Reference or User for "reference" files; calibration
// kinds are always Calibration. Errors name the row and field ("rows[2].model"). A shipped reference file
// (origin Reference) must state its "role" ("development" or "check"); a user's defaults to development. A check
// file may name a model or hardware preset that is not shipped yet (with "device_kind" when the hardware is
// unknown); every other file must name shipped presets. `kind`, when given: the file's "kind" (empty when it has
// none or the text is no JSON object), so a caller can tell a refused kind it skips without parsing again.
Expected<std::vector<MeasuredPoint>> readMeasuredPoints(const std::string& jsonText, MeasuredOrigin origin,
                                                        std::string* kind = nullptr);

// Every shipped file's points (calibration, development and check), read once. A shipped file that fails to load
// is an error naming the file and the field, never a silent gap; so is a development row whose `shares` names no
// calibration file or row, and a check row whose source cites what a calibration row cites. Files of kind
// "api-price" carry no points and are skipped by kind.
const Expected<std::vector<MeasuredPoint>>& shippedMeasuredPoints();

// The configuration a chart shows: model, hardware, devices, precision and the concurrency.
struct PredictionKey
{
    std::string modelId;
    std::string hardwareId;
    int devices = 0;
    Precision precision = Precision::Bf16;
    int concurrency = 1;
};

// Same model and hardware; same device count and precision where the point states them; and, unless
// anyConcurrency (curves over concurrency), the same concurrency. End-to-end rows never match a decode chart.
bool matchesPrediction(const MeasuredPoint& point, const PredictionKey& key, bool anyConcurrency = false);

std::vector<MeasuredPoint> matchingPoints(const std::vector<MeasuredPoint>& points, const PredictionKey& key,
                                          bool anyConcurrency = false);

} // namespace ws
