#pragma once
// Reads one preset file (JSON text) of the documented schema, version 1:
//
//   { "version": 1, "kind": "hardware" | "model", "id": "wse3", "name": "...",
//     "type": "wafer" | "gpu" | "lpu"          (hardware only)
//     "architecture": "qwen3"                  (model only)
//     "notes": "...",                          (optional)
//     "fields": { "<field>": { "value": <number|bool|string>, "source": "<citation>" }, ... } }
//
// Every field carries a non-empty `source`. Field names are the C++ member
// names (meshCols, sramBytesPerCore, hiddenSize, ...). Unknown fields are
// errors, so a typo never silently falls back to a default. The reader
// records the first error (with the file name and field) and ignores later
// reads, so a parser can read all fields and check ok() once.

#include "engine/core/error.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace ws {

class PresetReader
{
public:
    enum class Need
    {
        Required,
        Optional
    };
    enum class Bound
    {
        Positive,
        NonNegative,
        Any
    };

    static constexpr int kSchemaVersion = 1;

    // Parses the text and checks version, kind, id, name and the fields object.
    PresetReader(std::string_view text, std::string fileName, std::string_view expectedKind);

    bool ok() const { return !m_failed; }
    const Error& error() const { return m_error; }

    std::string id() const { return m_id; }
    std::string name() const { return m_name; }
    // A top-level string (e.g. "type", "architecture"); records an error when required and missing.
    std::string topString(const char* key, Need need);

    void integer(const char* field, int& out, Need need, Bound bound);
    void integer64(const char* field, int64_t& out, Need need, Bound bound);
    void number(const char* field, double& out, Need need, Bound bound);
    void boolean(const char* field, bool& out, Need need);
    void text(const char* field, std::string& out, Need need);

    // Records an error for any field in the file that was never read. Call after all reads.
    void rejectUnknownFields();
    void fail(ErrorCode code, const std::string& field, const std::string& text);

    const std::map<std::string, std::string>& sources() const { return m_sources; }

private:
    const nlohmann::json* fieldValue(const char* field, Need need);
    bool checkBound(const char* field, double v, Bound bound);

    std::string m_file;
    nlohmann::json m_doc;
    const nlohmann::json* m_fields = nullptr;
    std::string m_id;
    std::string m_name;
    std::set<std::string> m_read;
    std::map<std::string, std::string> m_sources;
    bool m_failed = false;
    Error m_error;
};

} // namespace ws
