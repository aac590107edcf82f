// CSV and JSON of a sweep (layoutsweep.h), and the merge of its shards.
#include "engine/explore/layoutsweep.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>

namespace ws {

namespace {
using nlohmann::json;

constexpr const char* kCsvHeader =
    "ms_per_token,tokens_per_second_per_user,ttft_ms,devices,kv_capacity_tokens,sram_headroom_bytes,error";
constexpr const char* kCsvMagic = "# waferscope sweep, points ";

std::string number(double v)
{
    return json(v).dump();
}

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
    return out + "\"";
}

std::string csvHead(const SweepResult& r)
{
    std::string head = std::string(kCsvMagic) + std::to_string(r.totalPoints) + "\nindex";
    for (const SweepAxis& a : r.axes)
        head += std::string(",") + sweepParameterId(a.parameter);
    return head + "," + kCsvHeader + "\n";
}

json axesJson(const std::vector<SweepAxis>& axes)
{
    json out = json::array();
    for (const SweepAxis& a : axes)
        out.push_back({{"parameter", sweepParameterId(a.parameter)}, {"values", a.values}});
    return out;
}

Error badShard(const std::string& why)
{
    return makeError(ErrorCode::Format, "sweep-merge: " + why, "shard");
}

// A point index or point count as written by sweepCsv: digits only, no sign, fits int64_t. A shard is a
// user's file, so anything else is refused here rather than thrown (std::stoll throws on "x" and on 20 digits).
std::optional<int64_t> wholeNumber(std::string_view text)
{
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || text.front() == '-' || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

std::string quoted(std::string_view text)
{
    std::string out(1, '"'); // appended piece by piece: GCC 12's -Wrestrict misfires on "\"" + std::string(...)
    out.append(text.substr(0, 24));
    out.append(text.size() > 24 ? "...\"" : "\"");
    return out;
}

Status complete(const std::vector<int64_t>& indices, int64_t total)
{
    for (size_t i = 0; i < indices.size(); ++i)
        if (indices[i] != int64_t(i))
            return badShard("point " + std::to_string(i) + " is missing or given twice");
    if (int64_t(indices.size()) != total)
        return badShard(std::to_string(indices.size()) + " of " + std::to_string(total) + " points given");
    return Ok{};
}

Expected<std::string> mergeCsv(const std::vector<std::string>& shards)
{
    std::string head;
    std::map<int64_t, std::string> rows;
    std::vector<int64_t> indices;
    int64_t total = 0;
    for (const std::string& text : shards) {
        std::istringstream in(text);
        std::string magic, columns, line;
        std::getline(in, magic);
        std::getline(in, columns);
        if (magic.rfind(kCsvMagic, 0) != 0)
            return badShard("not a sweep CSV");
        const std::string h = magic + "\n" + columns + "\n";
        if (!head.empty() && h != head)
            return badShard("the shards are of different sweeps");
        head = h;
        std::string_view count = std::string_view(magic).substr(std::string_view(kCsvMagic).size());
        if (!count.empty() && count.back() == '\r')
            count.remove_suffix(1); // a shard saved with CRLF line ends
        const auto points = wholeNumber(count);
        if (!points)
            return badShard("the point count " + quoted(count) + " is not a whole number");
        total = *points;
        while (std::getline(in, line))
            if (!line.empty()) {
                const std::string_view field = std::string_view(line).substr(0, line.find(','));
                const auto index = wholeNumber(field);
                if (!index)
                    return badShard("the point index " + quoted(field) + " is not a whole number");
                rows[*index] = line;
                indices.push_back(*index);
            }
    }
    std::sort(indices.begin(), indices.end());
    if (Status ok = complete(indices, total); !ok)
        return ok.error();
    std::string out = head;
    for (const auto& [index, line] : rows)
        out += line + "\n";
    return out;
}
} // namespace

std::string sweepCsv(const SweepResult& r)
{
    std::string out = csvHead(r);
    for (const SweepPoint& p : r.points) {
        out += std::to_string(p.index);
        for (const std::string& v : p.values) {
            out += ',';
            out += csvField(v);
        }
        if (p.error.empty()) {
            for (const std::string& field :
                 {number(p.msPerToken), number(p.tokensPerSecondPerUser), number(p.ttftMs), std::to_string(p.devices),
                  std::to_string(p.kvCapacityTokens), std::to_string(p.sramHeadroomBytes)}) {
                out += ',';
                out += field;
            }
            out += ",\n";
        } else {
            out += ",,,,,,,";
            out += csvField(p.error);
            out += '\n';
        }
    }
    return out;
}

std::string sweepJson(const SweepResult& r)
{
    json points = json::array();
    for (const SweepPoint& p : r.points) {
        json j{{"index", p.index}, {"values", p.values}};
        if (p.error.empty()) {
            j.update({{"ms_per_token", p.msPerToken},
                      {"tokens_per_second_per_user", p.tokensPerSecondPerUser},
                      {"ttft_ms", p.ttftMs},
                      {"devices", p.devices},
                      {"kv_capacity_tokens", p.kvCapacityTokens},
                      {"sram_headroom_bytes", p.sramHeadroomBytes}});
        } else {
            j["error"] = p.error;
        }
        points.push_back(std::move(j));
    }
    const json out{{"waferscope_sweep", 1},
                   {"axes", axesJson(r.axes)},
                   {"total_points", r.totalPoints},
                   {"shard", {r.shard, r.shards}},
                   {"points", points}};
    return out.dump() + "\n";
}

Expected<std::string> mergeSweeps(const std::vector<std::string>& shards)
{
    if (shards.empty())
        return badShard("no shards given");
    if (shards.front().rfind(kCsvMagic, 0) == 0)
        return mergeCsv(shards);
    json merged;
    std::vector<std::pair<int64_t, json>> points;
    for (const std::string& text : shards) {
        json j = json::parse(text, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("waferscope_sweep") || !j.contains("points") ||
            !j.contains("axes") || !j.contains("total_points"))
            return badShard("not a sweep (CSV or JSON)");
        if (!j["points"].is_array() || !j["total_points"].is_number_unsigned())
            return badShard("\"points\" must be an array and \"total_points\" a whole number");
        if (!merged.is_null() && (j["axes"] != merged["axes"] || j["total_points"] != merged["total_points"]))
            return badShard("the shards are of different sweeps");
        for (json& p : j["points"]) {
            // nlohmann's value() and get() throw on a mistyped field: checked here, as the CSV's indices are.
            if (!p.is_object() || !p.contains("index") || !p["index"].is_number_unsigned() ||
                p["index"].get<uint64_t>() > uint64_t(INT64_MAX))
                return badShard("every point must be an object with a whole-number \"index\"");
            points.emplace_back(p["index"].get<int64_t>(), std::move(p));
        }
        j.erase("points");
        merged = std::move(j);
    }
    std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<int64_t> indices;
    json all = json::array();
    for (auto& [index, p] : points) {
        indices.push_back(index);
        all.push_back(std::move(p));
    }
    const uint64_t total = merged["total_points"].get<uint64_t>();
    if (Status ok = complete(indices, total > uint64_t(INT64_MAX) ? -1 : int64_t(total)); !ok)
        return ok.error();
    merged["shard"] = {1, 1};
    merged["points"] = std::move(all);
    return merged.dump() + "\n";
}

} // namespace ws
