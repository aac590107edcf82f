#include "engine/calibration/measurementjson.h"

namespace ws {

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
