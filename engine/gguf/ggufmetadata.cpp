// GgufFile's typed metadata getters: integers convert between widths and
// signedness when the value fits; floats accept F32 and F64.
#include "engine/gguf/gguffile.h"

#include <cstring>
#include <limits>

namespace ws {

namespace {

template <typename T> T loadLe(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

bool isInteger(GgufValueType t)
{
    switch (t) {
    case GgufValueType::UInt8:
    case GgufValueType::Int8:
    case GgufValueType::UInt16:
    case GgufValueType::Int16:
    case GgufValueType::UInt32:
    case GgufValueType::Int32:
    case GgufValueType::UInt64:
    case GgufValueType::Int64:
        return true;
    default:
        return false;
    }
}

// Reads an integer element as a signed 128-bit-safe pair: negative flag + magnitude.
struct IntValue
{
    bool negative = false;
    uint64_t magnitude = 0;
};

IntValue readInteger(GgufValueType t, const uint8_t* p)
{
    auto fromSigned = [](int64_t v) {
        return v < 0 ? IntValue{true, uint64_t(0) - static_cast<uint64_t>(v)}
                     : IntValue{false, static_cast<uint64_t>(v)};
    };
    switch (t) {
    case GgufValueType::UInt8:
        return {false, loadLe<uint8_t>(p)};
    case GgufValueType::Int8:
        return fromSigned(loadLe<int8_t>(p));
    case GgufValueType::UInt16:
        return {false, loadLe<uint16_t>(p)};
    case GgufValueType::Int16:
        return fromSigned(loadLe<int16_t>(p));
    case GgufValueType::UInt32:
        return {false, loadLe<uint32_t>(p)};
    case GgufValueType::Int32:
        return fromSigned(loadLe<int32_t>(p));
    case GgufValueType::UInt64:
        return {false, loadLe<uint64_t>(p)};
    case GgufValueType::Int64:
        return fromSigned(loadLe<int64_t>(p));
    default:
        return {};
    }
}

template <typename T> bool fitsIn(IntValue v)
{
    if (v.negative) {
        if constexpr (std::is_unsigned_v<T>)
            return v.magnitude == 0;
        else
            return v.magnitude <= uint64_t(std::numeric_limits<T>::max()) + 1;
    }
    return v.magnitude <= static_cast<uint64_t>(std::numeric_limits<T>::max());
}

template <typename T> T toInteger(IntValue v)
{
    if (v.negative)
        return static_cast<T>(-static_cast<int64_t>(v.magnitude - 1) - 1);
    return static_cast<T>(v.magnitude);
}

} // namespace

uint64_t ggufScalarBytes(GgufValueType t)
{
    switch (t) {
    case GgufValueType::UInt8:
    case GgufValueType::Int8:
    case GgufValueType::Bool:
        return 1;
    case GgufValueType::UInt16:
    case GgufValueType::Int16:
        return 2;
    case GgufValueType::UInt32:
    case GgufValueType::Int32:
    case GgufValueType::Float32:
        return 4;
    case GgufValueType::UInt64:
    case GgufValueType::Int64:
    case GgufValueType::Float64:
        return 8;
    case GgufValueType::String:
    case GgufValueType::Array:
        return 0;
    }
    return 0;
}

const char* ggufValueTypeName(GgufValueType type)
{
    switch (type) {
    case GgufValueType::UInt8:
        return "uint8";
    case GgufValueType::Int8:
        return "int8";
    case GgufValueType::UInt16:
        return "uint16";
    case GgufValueType::Int16:
        return "int16";
    case GgufValueType::UInt32:
        return "uint32";
    case GgufValueType::Int32:
        return "int32";
    case GgufValueType::Float32:
        return "float32";
    case GgufValueType::Bool:
        return "bool";
    case GgufValueType::String:
        return "string";
    case GgufValueType::Array:
        return "array";
    case GgufValueType::UInt64:
        return "uint64";
    case GgufValueType::Int64:
        return "int64";
    case GgufValueType::Float64:
        return "float64";
    }
    return "unknown";
}

template <typename T> Expected<T> GgufFile::getInteger(std::string_view key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return error(ErrorCode::NotFound, "key is missing", std::string(key));
    if (!isInteger(v->type)) {
        Error e = error(ErrorCode::Format, std::string("expected an integer, found ") + ggufValueTypeName(v->type),
                        std::string(key));
        e.offset = v->fileOffset;
        return e;
    }
    const IntValue iv = readInteger(v->type, v->raw);
    if (!fitsIn<T>(iv)) {
        Error e = error(ErrorCode::Format, "value is out of range", std::string(key));
        e.offset = v->fileOffset;
        return e;
    }
    return toInteger<T>(iv);
}

Expected<uint32_t> GgufFile::getU32(std::string_view key) const
{
    return getInteger<uint32_t>(key);
}
Expected<int32_t> GgufFile::getI32(std::string_view key) const
{
    return getInteger<int32_t>(key);
}
Expected<uint64_t> GgufFile::getU64(std::string_view key) const
{
    return getInteger<uint64_t>(key);
}

Expected<std::string_view> GgufFile::getString(std::string_view key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return error(ErrorCode::NotFound, "key is missing", std::string(key));
    if (v->type != GgufValueType::String)
        return error(ErrorCode::Format, std::string("expected a string, found ") + ggufValueTypeName(v->type),
                     std::string(key));
    return std::string_view(reinterpret_cast<const char*>(v->raw), v->count);
}

Expected<float> GgufFile::getF32(std::string_view key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return error(ErrorCode::NotFound, "key is missing", std::string(key));
    if (v->type == GgufValueType::Float32)
        return loadLe<float>(v->raw);
    if (v->type == GgufValueType::Float64)
        return static_cast<float>(loadLe<double>(v->raw));
    return error(ErrorCode::Format, std::string("expected a float, found ") + ggufValueTypeName(v->type),
                 std::string(key));
}

Expected<bool> GgufFile::getBool(std::string_view key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return error(ErrorCode::NotFound, "key is missing", std::string(key));
    if (v->type != GgufValueType::Bool)
        return error(ErrorCode::Format, std::string("expected a bool, found ") + ggufValueTypeName(v->type),
                     std::string(key));
    return v->raw[0] != 0;
}

Expected<std::span<const std::string_view>> GgufFile::getStringArray(std::string_view key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return error(ErrorCode::NotFound, "key is missing", std::string(key));
    if (v->type != GgufValueType::Array || v->elementType != GgufValueType::String)
        return error(ErrorCode::Format, "expected an array of strings", std::string(key));
    return std::span<const std::string_view>(v->strings);
}

Expected<std::vector<float>> GgufFile::getF32Array(std::string_view key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return error(ErrorCode::NotFound, "key is missing", std::string(key));
    if (v->type != GgufValueType::Array ||
        (v->elementType != GgufValueType::Float32 && v->elementType != GgufValueType::Float64))
        return error(ErrorCode::Format, "expected an array of floats", std::string(key));
    std::vector<float> out(v->count);
    for (uint64_t i = 0; i < v->count; ++i)
        out[i] = v->elementType == GgufValueType::Float32 ? loadLe<float>(v->raw + 4 * i)
                                                          : static_cast<float>(loadLe<double>(v->raw + 8 * i));
    return out;
}

Expected<std::vector<int32_t>> GgufFile::getI32Array(std::string_view key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return error(ErrorCode::NotFound, "key is missing", std::string(key));
    if (v->type != GgufValueType::Array || !isInteger(v->elementType))
        return error(ErrorCode::Format, "expected an array of integers", std::string(key));
    const uint64_t n = ggufScalarBytes(v->elementType);
    std::vector<int32_t> out(v->count);
    for (uint64_t i = 0; i < v->count; ++i) {
        const IntValue iv = readInteger(v->elementType, v->raw + n * i);
        if (!fitsIn<int32_t>(iv))
            return error(ErrorCode::Format, "element " + std::to_string(i) + " is out of int32 range",
                         std::string(key));
        out[i] = toInteger<int32_t>(iv);
    }
    return out;
}

Expected<uint64_t> GgufFile::arrayLength(std::string_view key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return error(ErrorCode::NotFound, "key is missing", std::string(key));
    if (v->type != GgufValueType::Array)
        return error(ErrorCode::Format, "expected an array", std::string(key));
    return v->count;
}

Expected<uint32_t> GgufFile::getU32Or(std::string_view key, uint32_t fallback) const
{
    return has(key) ? getU32(key) : Expected<uint32_t>(fallback);
}

Expected<float> GgufFile::getF32Or(std::string_view key, float fallback) const
{
    return has(key) ? getF32(key) : Expected<float>(fallback);
}

Expected<bool> GgufFile::getBoolOr(std::string_view key, bool fallback) const
{
    return has(key) ? getBool(key) : Expected<bool>(fallback);
}

} // namespace ws
