#include "engine/wafer/placement/layoutjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iterator>

namespace ws {

namespace {
using nlohmann::json;

// A key or value from the file as a message may show it: on one line, so a control character in it (a JSON
// "\n" in a key) is written escaped, in quotes, as JSON writes it.
std::string oneLine(const std::string& text)
{
    const bool plain =
        std::none_of(text.begin(), text.end(), [](char c) { return (unsigned char)c < 0x20 || c == 0x7f; });
    return plain ? text : json(text).dump(-1, ' ', false, json::error_handler_t::replace);
}

Error bad(const std::string& field, const std::string& why)
{
    return makeError(ErrorCode::Format, "layout: " + oneLine(field) + ": " + why, field);
}

Expected<Precision> precisionField(const json& j, const char* key)
{
    if (!j.contains(key) || !j.at(key).is_string())
        return bad(std::string("precisions.") + key, "must be a precision id");
    auto p = parsePrecision(j.at(key).get<std::string>());
    if (!p)
        return bad(std::string("precisions.") + key,
                   "unknown precision '" + oneLine(j.at(key).get<std::string>()) + "'");
    return *p;
}

Expected<std::vector<int>> layerList(const json& j, const char* key)
{
    if (!j.contains(key) || !j.at(key).is_array())
        return bad(key, "must be an array of layer indices");
    std::vector<int> out;
    for (const json& x : j.at(key)) {
        if (!x.is_number_integer())
            return bad(key, "must be an array of layer indices");
        out.push_back(x.get<int>());
    }
    return out;
}
} // namespace

std::string layoutToJson(const Layout& l)
{
    json layers = json::array();
    for (const LayoutRegion& r : l.layers)
        layers.push_back({r.device, r.rect.x, r.rect.y, r.rect.width, r.rect.height});
    const json j{
        {"waferscope_layout", kLayoutFormatVersion},
        {"origin", l.origin},
        {"model", l.modelId},
        {"hardware", l.hardwareId},
        {"strategy", placementStrategyId(l.strategy)},
        {"experts", expertLayoutId(l.experts)},
        {"order", layerOrderId(l.order)},
        {"weight_fill", l.weightFill},
        {"context_tokens", l.contextTokens},
        {"precisions",
         {{"attention", precisionId(l.precisions.attention)},
          {"ffn", precisionId(l.precisions.ffn)},
          {"tables", precisionId(l.precisions.tables)}}},
        {"devices", l.deviceCount},
        {"usable_mesh", {l.usableCols, l.usableRows}},
        {"layers", layers},
        {"embedding", l.embeddingLayers},
        {"lm_head", l.headLayers},
        {"notes", l.notes},
    };
    return j.dump(2) + "\n";
}

Expected<Layout> layoutFromJson(std::string_view text)
{
    const json j = json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return makeError(ErrorCode::Format, "layout: not valid JSON");
    if (!j.contains("waferscope_layout") || !j.at("waferscope_layout").is_number_integer())
        return makeError(ErrorCode::Format, "layout: not a WaferScope layout (no \"waferscope_layout\" version)");
    if (j.at("waferscope_layout").get<int>() > kLayoutFormatVersion)
        return makeError(ErrorCode::Format, "layout: written by a newer WaferScope");
    for (const auto& [key, value] : j.items()) {
        static const char* const known[] = {"waferscope_layout", "origin",  "model",       "hardware",
                                            "strategy",          "order",   "weight_fill", "context_tokens",
                                            "precisions",        "devices", "usable_mesh", "layers",
                                            "embedding",         "lm_head", "notes",       "experts"};
        if (std::find(std::begin(known), std::end(known), key) == std::end(known))
            return bad(key, "unknown field");
    }
    Layout l;
    auto text_ = [&](const char* key, std::string& out) -> bool {
        if (!j.contains(key) || !j.at(key).is_string())
            return false;
        out = j.at(key).get<std::string>();
        return true;
    };
    std::string strategy, order;
    for (auto [key, out] : {std::pair{"origin", &l.origin},
                            {"model", &l.modelId},
                            {"hardware", &l.hardwareId},
                            {"strategy", &strategy},
                            {"order", &order}})
        if (!text_(key, *out))
            return bad(key, "must be a string");
    const auto s = parsePlacementStrategy(strategy);
    if (!s)
        return bad("strategy", "must be pipelined or tensor-parallel");
    l.strategy = *s;
    // Written since MoE layers have a choice of layout; a layout from before was timed with its experts in blocks.
    l.experts = ExpertLayout::Blocks;
    if (j.contains("experts")) {
        const auto e =
            j.at("experts").is_string() ? parseExpertLayout(j.at("experts").get<std::string>()) : std::nullopt;
        if (!e)
            return bad("experts", "must be blocks or sliced");
        l.experts = *e;
    }
    const auto o = parseLayerOrder(order);
    if (!o)
        return bad("order", "must be snake, row-major or column-major");
    l.order = *o;
    if (!j.contains("weight_fill") || !j.at("weight_fill").is_number())
        return bad("weight_fill", "must be a number");
    l.weightFill = j.at("weight_fill").get<double>();
    for (auto [key, ok] :
         {std::pair{"context_tokens", j.contains("context_tokens") && j.at("context_tokens").is_number_integer()},
          {"devices", j.contains("devices") && j.at("devices").is_number_integer()}})
        if (!ok)
            return bad(key, "must be an integer");
    l.contextTokens = j.at("context_tokens").get<int64_t>();
    l.deviceCount = j.at("devices").get<int>();
    if (!j.contains("precisions") || !j.at("precisions").is_object())
        return bad("precisions", "must be an object");
    const json& pj = j.at("precisions");
    auto attention = precisionField(pj, "attention");
    auto ffn = precisionField(pj, "ffn");
    auto tables = precisionField(pj, "tables");
    for (const auto* e : {&attention, &ffn, &tables})
        if (!*e)
            return e->error();
    l.precisions = {*attention, *ffn, *tables};
    const json* mesh = j.contains("usable_mesh") ? &j.at("usable_mesh") : nullptr;
    if (!mesh || !mesh->is_array() || mesh->size() != 2 || !(*mesh)[0].is_number_integer() ||
        !(*mesh)[1].is_number_integer())
        return bad("usable_mesh", "must be [cols, rows]");
    l.usableCols = (*mesh)[0].get<int>();
    l.usableRows = (*mesh)[1].get<int>();
    if (!j.contains("layers") || !j.at("layers").is_array())
        return bad("layers", "must be an array of [device, x, y, width, height]");
    for (const json& r : j.at("layers")) {
        if (!r.is_array() || r.size() != 5)
            return bad("layers", "must be an array of [device, x, y, width, height]");
        for (const json& v : r)
            if (!v.is_number_integer())
                return bad("layers", "must be an array of [device, x, y, width, height]");
        l.layers.push_back(
            {r[0].get<int>(), CoreRect{r[1].get<int>(), r[2].get<int>(), r[3].get<int>(), r[4].get<int>()}});
    }
    auto embedding = layerList(j, "embedding");
    if (!embedding)
        return embedding.error();
    auto head = layerList(j, "lm_head");
    if (!head)
        return head.error();
    if (j.contains("notes")) {
        if (!j.at("notes").is_array())
            return bad("notes", "must be an array of strings");
        for (const json& n : j.at("notes")) {
            if (!n.is_string())
                return bad("notes", "must be an array of strings");
            l.notes.push_back(n.get<std::string>());
        }
    }
    l.embeddingLayers = std::move(*embedding);
    l.headLayers = std::move(*head);
    return l;
}

} // namespace ws
