#include "engine/calibration/measurementjson.h"

#include <cmath>

namespace ws {

Status integerFieldsFit(const nlohmann::json& r, const std::string& where)
{
    static const char* const ints[] = {"grid",  "decode_grid", "prefill_grid",       "devices",     "gpus",
                                       "chips", "concurrency", "kv_bytes_per_value", "draft_tokens"};
    static const char* const longs[] = {"context", "prompt", "output"};
    if (!r.is_object())
        return Ok{};
    auto fits = [&](const char* key, double limit) {
        return !r.contains(key) || !r.at(key).is_number_float() || std::fabs(r.at(key).get<double>()) < limit;
    };
    for (const char* key : ints)
        if (!fits(key, 2147483648.0))
            return makeError(ErrorCode::Format, "must be a whole number of at most 2^31", where + key);
    for (const char* key : longs)
        if (!fits(key, 9223372036854775808.0))
            return makeError(ErrorCode::Format, "must be a whole number of at most 2^63", where + key);
    return Ok{};
}

Expected<MeasurementHeader> readMeasurementHeader(const nlohmann::json& j, std::string_view kind,
                                                  MeasurementHeaderRules rules)
{
    if (j.is_discarded() || !j.is_object())
        return makeError(ErrorCode::Format, "measurement file is not a JSON object");
    if (j.value("kind", std::string()) != kind)
        return makeError(ErrorCode::Format, "expected kind \"" + std::string(kind) + "\"", "kind");
    MeasurementHeader h;
    h.id = j.value("id", std::string());
    h.source = j.value("source", std::string());
    h.description = j.value("description", std::string());
    if ((rules.idRequired && h.id.empty()) || (rules.sourceRequired && h.source.empty()))
        return makeError(ErrorCode::Format,
                         rules.sourceRequired ? "a measurement set needs an id and a source"
                                              : "a measurement set needs an id",
                         "id");
    if (!j.contains("rows") || !j["rows"].is_array() || (!rules.emptyRowsAllowed && j["rows"].empty()))
        return makeError(ErrorCode::Format, "missing rows", "rows");
    return h;
}

} // namespace ws
