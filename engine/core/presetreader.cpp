#include "engine/core/presetreader.h"

#include <cmath>
#include <limits>

namespace ws {

using nlohmann::json;

PresetReader::PresetReader(std::string_view text, std::string fileName, std::string_view expectedKind)
    : m_file(std::move(fileName))
{
    try {
        m_doc = json::parse(text.begin(), text.end());
    } catch (const json::exception& e) { // a syntax error, or a number too large for a double (out_of_range)
        Error err = makeError(ErrorCode::Format, std::string("not valid JSON: ") + e.what());
        err.file = m_file;
        if (const auto* syntax = dynamic_cast<const json::parse_error*>(&e))
            err.offset = syntax->byte;
        m_error = err;
        m_failed = true;
        return;
    }
    if (!m_doc.is_object()) {
        fail(ErrorCode::Format, {}, "a preset must be a JSON object");
        return;
    }
    const auto version = m_doc.find("version");
    if (version == m_doc.end()) {
        fail(ErrorCode::Format, "version", "missing");
        return;
    }
    if (!version->is_number_integer() || version->get<int64_t>() != kSchemaVersion) {
        fail(ErrorCode::Unsupported, "version", "unsupported preset version " + version->dump() + " (expected 1)");
        return;
    }
    const std::string kind = topString("kind", Need::Required);
    if (m_failed)
        return;
    if (kind != expectedKind) {
        fail(ErrorCode::Format, "kind", "expected '" + std::string(expectedKind) + "', got '" + kind + "'");
        return;
    }
    m_id = topString("id", Need::Required);
    m_name = topString("name", Need::Required);
    if (m_failed)
        return;
    if (m_id.empty()) {
        fail(ErrorCode::Format, "id", "must not be empty");
        return;
    }
    for (const char ch : m_id) {
        const bool okChar = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' || ch == '_';
        if (!okChar) {
            fail(ErrorCode::Format, "id", "'" + m_id + "' must use lower-case letters, digits, '-', '.' or '_'");
            return;
        }
    }
    const auto notes = m_doc.find("notes");
    if (notes != m_doc.end() && !notes->is_string()) {
        fail(ErrorCode::Format, "notes", "must be a string");
        return;
    }
    const auto fields = m_doc.find("fields");
    if (fields == m_doc.end() || !fields->is_object()) {
        fail(ErrorCode::Format, "fields", fields == m_doc.end() ? "missing" : "must be an object");
        return;
    }
    m_fields = &*fields;
    for (const auto& [key, entry] : fields->items()) {
        if (!entry.is_object() || !entry.contains("value")) {
            fail(ErrorCode::Format, key, "must be an object {\"value\": ..., \"source\": \"...\"}");
            return;
        }
        const auto source = entry.find("source");
        if (source == entry.end() || !source->is_string() || source->get<std::string>().empty()) {
            fail(ErrorCode::Format, key, "needs a non-empty \"source\" citation");
            return;
        }
        m_sources[key] = source->get<std::string>();
    }
}

void PresetReader::fail(ErrorCode code, const std::string& field, const std::string& text)
{
    if (m_failed)
        return;
    m_failed = true;
    m_error = makeError(code, text, field);
    m_error.file = m_file;
}

std::string PresetReader::topString(const char* key, Need need)
{
    if (m_failed)
        return {};
    const auto it = m_doc.find(key);
    if (it == m_doc.end()) {
        if (need == Need::Required)
            fail(ErrorCode::Format, key, "missing");
        return {};
    }
    if (!it->is_string()) {
        fail(ErrorCode::Format, key, "must be a string, got " + std::string(it->type_name()));
        return {};
    }
    return it->get<std::string>();
}

const json* PresetReader::fieldValue(const char* field, Need need)
{
    if (m_failed || !m_fields)
        return nullptr;
    m_read.insert(field);
    const auto it = m_fields->find(field);
    if (it == m_fields->end()) {
        if (need == Need::Required)
            fail(ErrorCode::Format, field, "missing required field");
        return nullptr;
    }
    return &(*it)["value"];
}

bool PresetReader::checkBound(const char* field, double v, Bound bound)
{
    if (!std::isfinite(v)) {
        fail(ErrorCode::InvalidArgument, field, "must be a finite number");
        return false;
    }
    if (bound == Bound::Positive && !(v > 0)) {
        fail(ErrorCode::InvalidArgument, field, "must be greater than zero, got " + json(v).dump());
        return false;
    }
    if (bound == Bound::NonNegative && v < 0) {
        fail(ErrorCode::InvalidArgument, field, "must not be negative, got " + json(v).dump());
        return false;
    }
    return true;
}

void PresetReader::integer64(const char* field, int64_t& out, Need need, Bound bound)
{
    const json* v = fieldValue(field, need);
    if (!v)
        return;
    if (!v->is_number()) {
        fail(ErrorCode::Format, field, "must be an integer, got " + std::string(v->type_name()));
        return;
    }
    const double d = v->get<double>();
    // Integers written as 8e10 in JSON arrive as floating point; accept them when integral.
    if (!std::isfinite(d) || std::floor(d) != d || std::fabs(d) > 9.0e15) {
        fail(ErrorCode::Format, field, "must be an integer, got " + v->dump());
        return;
    }
    if (!checkBound(field, d, bound))
        return;
    out = v->is_number_integer() ? v->get<int64_t>() : static_cast<int64_t>(d);
}

void PresetReader::integer(const char* field, int& out, Need need, Bound bound)
{
    int64_t wide = out;
    integer64(field, wide, need, bound);
    if (m_failed)
        return;
    if (wide > std::numeric_limits<int>::max() || wide < std::numeric_limits<int>::min()) {
        fail(ErrorCode::OutOfRange, field, "is too large");
        return;
    }
    out = static_cast<int>(wide);
}

void PresetReader::number(const char* field, double& out, Need need, Bound bound)
{
    const json* v = fieldValue(field, need);
    if (!v)
        return;
    if (!v->is_number()) {
        fail(ErrorCode::Format, field, "must be a number, got " + std::string(v->type_name()));
        return;
    }
    const double d = v->get<double>();
    if (checkBound(field, d, bound))
        out = d;
}

void PresetReader::boolean(const char* field, bool& out, Need need)
{
    const json* v = fieldValue(field, need);
    if (!v)
        return;
    if (!v->is_boolean()) {
        fail(ErrorCode::Format, field, "must be true or false, got " + v->dump());
        return;
    }
    out = v->get<bool>();
}

void PresetReader::text(const char* field, std::string& out, Need need)
{
    const json* v = fieldValue(field, need);
    if (!v)
        return;
    if (!v->is_string()) {
        fail(ErrorCode::Format, field, "must be a string, got " + std::string(v->type_name()));
        return;
    }
    out = v->get<std::string>();
}

void PresetReader::rejectUnknownFields()
{
    if (m_failed || !m_fields)
        return;
    for (const auto& [key, entry] : m_fields->items()) {
        (void)entry;
        if (!m_read.count(key)) {
            fail(ErrorCode::Format, key, "unknown field");
            return;
        }
    }
}

} // namespace ws
