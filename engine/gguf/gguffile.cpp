#include "engine/gguf/gguffile.h"

#include <cstring>
#include <limits>

namespace ws {

namespace {

constexpr uint32_t kGgufMagic = 0x46554747; // "GGUF" little-endian
constexpr uint64_t kMaxStringBytes = uint64_t(1) << 30;
constexpr uint32_t kMaxDims = 4;

template<typename T>
T loadLe(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

uint64_t scalarBytes(GgufValueType t)
{
    switch (t) {
    case GgufValueType::UInt8:
    case GgufValueType::Int8:
    case GgufValueType::Bool: return 1;
    case GgufValueType::UInt16:
    case GgufValueType::Int16: return 2;
    case GgufValueType::UInt32:
    case GgufValueType::Int32:
    case GgufValueType::Float32: return 4;
    case GgufValueType::UInt64:
    case GgufValueType::Int64:
    case GgufValueType::Float64: return 8;
    case GgufValueType::String:
    case GgufValueType::Array: return 0;
    }
    return 0;
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
    case GgufValueType::Int64: return true;
    default: return false;
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
        return v < 0 ? IntValue{true, uint64_t(0) - static_cast<uint64_t>(v)} : IntValue{false, static_cast<uint64_t>(v)};
    };
    switch (t) {
    case GgufValueType::UInt8: return {false, loadLe<uint8_t>(p)};
    case GgufValueType::Int8: return fromSigned(loadLe<int8_t>(p));
    case GgufValueType::UInt16: return {false, loadLe<uint16_t>(p)};
    case GgufValueType::Int16: return fromSigned(loadLe<int16_t>(p));
    case GgufValueType::UInt32: return {false, loadLe<uint32_t>(p)};
    case GgufValueType::Int32: return fromSigned(loadLe<int32_t>(p));
    case GgufValueType::UInt64: return {false, loadLe<uint64_t>(p)};
    case GgufValueType::Int64: return fromSigned(loadLe<int64_t>(p));
    default: return {};
    }
}

template<typename T>
bool fitsIn(IntValue v)
{
    if (v.negative) {
        if constexpr (std::is_unsigned_v<T>)
            return v.magnitude == 0;
        else
            return v.magnitude <= uint64_t(std::numeric_limits<T>::max()) + 1;
    }
    return v.magnitude <= static_cast<uint64_t>(std::numeric_limits<T>::max());
}

template<typename T>
T toInteger(IntValue v)
{
    if (v.negative)
        return static_cast<T>(-static_cast<int64_t>(v.magnitude - 1) - 1);
    return static_cast<T>(v.magnitude);
}

} // namespace

const char* ggufValueTypeName(GgufValueType type)
{
    switch (type) {
    case GgufValueType::UInt8: return "uint8";
    case GgufValueType::Int8: return "int8";
    case GgufValueType::UInt16: return "uint16";
    case GgufValueType::Int16: return "int16";
    case GgufValueType::UInt32: return "uint32";
    case GgufValueType::Int32: return "int32";
    case GgufValueType::Float32: return "float32";
    case GgufValueType::Bool: return "bool";
    case GgufValueType::String: return "string";
    case GgufValueType::Array: return "array";
    case GgufValueType::UInt64: return "uint64";
    case GgufValueType::Int64: return "int64";
    case GgufValueType::Float64: return "float64";
    }
    return "unknown";
}

// Parses the header and index of a mapped file with a bounds-checked cursor.
class GgufParser
{
public:
    explicit GgufParser(GgufFile& out) : m_out(out), m_data(out.m_file->data()), m_size(out.m_file->sizeBytes()) {}

    Status parse();

private:
    Error fail(std::string text, std::string field = {}) const
    {
        Error e = m_out.error(ErrorCode::Format, std::move(text), std::move(field));
        e.offset = m_pos;
        return e;
    }
    bool need(uint64_t bytes) const { return bytes <= m_size - m_pos; }
    template<typename T>
    bool read(T& v)
    {
        if (!need(sizeof(T)))
            return false;
        v = loadLe<T>(m_data + m_pos);
        m_pos += sizeof(T);
        return true;
    }
    // Reads a length-prefixed string as a view into the mapping.
    std::optional<Error> readString(std::string_view& s, const std::string& field);
    std::optional<Error> readValue(GgufValue& v, const std::string& key);

    GgufFile& m_out;
    const uint8_t* m_data;
    uint64_t m_size;
    uint64_t m_pos = 0;
};

std::optional<Error> GgufParser::readString(std::string_view& s, const std::string& field)
{
    uint64_t len = 0;
    if (!read(len))
        return fail("file ends inside a string length", field);
    if (len > kMaxStringBytes || !need(len)) {
        m_pos -= sizeof(uint64_t);
        return fail("string length " + std::to_string(len) + " runs past the end of the file", field);
    }
    s = std::string_view(reinterpret_cast<const char*>(m_data + m_pos), len);
    m_pos += len;
    return std::nullopt;
}

std::optional<Error> GgufParser::readValue(GgufValue& v, const std::string& key)
{
    uint32_t type = 0;
    v.fileOffset = m_pos;
    if (!read(type))
        return fail("file ends inside a value type", key);
    if (type > static_cast<uint32_t>(GgufValueType::Float64)) {
        m_pos -= 4;
        return fail("unknown value type " + std::to_string(type), key);
    }
    v.type = static_cast<GgufValueType>(type);
    if (v.type == GgufValueType::String) {
        std::string_view s;
        if (auto e = readString(s, key))
            return e;
        v.raw = reinterpret_cast<const uint8_t*>(s.data());
        v.count = s.size();
        return std::nullopt;
    }
    if (v.type != GgufValueType::Array) {
        const uint64_t n = scalarBytes(v.type);
        if (!need(n))
            return fail("file ends inside a " + std::string(ggufValueTypeName(v.type)) + " value", key);
        v.raw = m_data + m_pos;
        m_pos += n;
        return std::nullopt;
    }
    uint32_t elementType = 0;
    if (!read(elementType))
        return fail("file ends inside an array header", key);
    if (elementType > static_cast<uint32_t>(GgufValueType::Float64)) {
        m_pos -= 4;
        return fail("unknown array element type " + std::to_string(elementType), key);
    }
    v.elementType = static_cast<GgufValueType>(elementType);
    if (v.elementType == GgufValueType::Array)
        return fail("arrays of arrays are not supported", key);
    if (!read(v.count))
        return fail("file ends inside an array length", key);
    if (v.elementType == GgufValueType::String) {
        // Each string needs at least its 8-byte length: reject absurd counts before allocating.
        if (v.count > (m_size - m_pos) / 8) {
            m_pos -= 8;
            return fail("array of " + std::to_string(v.count) + " strings runs past the end of the file", key);
        }
        v.strings.resize(v.count);
        for (auto& s : v.strings)
            if (auto e = readString(s, key))
                return e;
        return std::nullopt;
    }
    const uint64_t elemBytes = scalarBytes(v.elementType);
    if (v.count > (m_size - m_pos) / elemBytes) {
        m_pos -= 8;
        return fail("array of " + std::to_string(v.count) + " " + ggufValueTypeName(v.elementType) +
                        " runs past the end of the file",
                    key);
    }
    v.raw = m_data + m_pos;
    m_pos += v.count * elemBytes;
    return std::nullopt;
}

Status GgufParser::parse()
{
    uint32_t magic = 0;
    if (!read(magic))
        return fail("file is too short to be GGUF (" + std::to_string(m_size) + " bytes)", "magic");
    if (magic != kGgufMagic) {
        m_pos = 0;
        return fail("not a GGUF file (bad magic)", "magic");
    }
    if (!read(m_out.m_version))
        return fail("file ends inside the header", "version");
    if (m_out.m_version != 2 && m_out.m_version != 3) {
        m_pos -= 4;
        std::string text = "unsupported GGUF version " + std::to_string(m_out.m_version) + " (2 and 3 are read)";
        if ((m_out.m_version & 0xffff) == 0)
            text += "; the file may be big-endian";
        return fail(std::move(text), "version");
    }
    uint64_t tensorCount = 0;
    uint64_t kvCount = 0;
    if (!read(tensorCount))
        return fail("file ends inside the header", "tensor_count");
    if (!read(kvCount))
        return fail("file ends inside the header", "metadata_kv_count");
    // A key/value pair takes at least 8 (key length) + 4 (type) + 1 bytes; a tensor
    // info at least 8 + 4 + 4 + 8 bytes. Larger counts cannot fit in the file.
    if (kvCount > (m_size - m_pos) / 13) {
        m_pos -= 8;
        return fail("metadata count " + std::to_string(kvCount) + " is larger than the file can hold",
                    "metadata_kv_count");
    }
    if (tensorCount > (m_size - m_pos) / 24) {
        m_pos -= 16;
        return fail("tensor count " + std::to_string(tensorCount) + " is larger than the file can hold",
                    "tensor_count");
    }

    m_out.m_metadata.reserve(kvCount);
    for (uint64_t i = 0; i < kvCount; ++i) {
        std::string_view key;
        if (auto e = readString(key, "metadata key #" + std::to_string(i)))
            return *e;
        GgufKeyValue kv;
        kv.key = std::string(key);
        if (auto e = readValue(kv.value, kv.key))
            return *e;
        if (!m_out.m_keyIndex.emplace(key, m_out.m_metadata.size()).second)
            return fail("duplicate metadata key", kv.key);
        m_out.m_metadata.push_back(std::move(kv));
    }

    if (const GgufValue* a = m_out.find("general.alignment")) {
        auto al = m_out.getU32("general.alignment");
        if (!al)
            return al.error();
        if (*al == 0 || (*al & (*al - 1)) != 0 || *al > 65536) {
            Error e = m_out.error(ErrorCode::Format, "alignment " + std::to_string(*al) + " is not a power of two",
                                  "general.alignment");
            e.offset = a->fileOffset;
            return e;
        }
        m_out.m_alignment = *al;
    }

    m_out.m_tensors.reserve(tensorCount);
    for (uint64_t i = 0; i < tensorCount; ++i) {
        GgufTensorInfo t;
        std::string_view name;
        if (auto e = readString(name, "tensor #" + std::to_string(i) + " name"))
            return *e;
        t.name = std::string(name);
        if (!read(t.dimCount))
            return fail("file ends inside the tensor index", t.name);
        if (t.dimCount == 0 || t.dimCount > kMaxDims) {
            m_pos -= 4;
            return fail("tensor has " + std::to_string(t.dimCount) + " dimensions (1 to 4 allowed)", t.name);
        }
        for (uint32_t d = 0; d < t.dimCount; ++d) {
            if (!read(t.dims[d]))
                return fail("file ends inside the tensor index", t.name);
            if (t.dims[d] == 0 || t.dims[d] > (uint64_t(1) << 40)) {
                m_pos -= 8;
                return fail("tensor dimension " + std::to_string(t.dims[d]) + " is out of range", t.name);
            }
        }
        uint32_t type = 0;
        if (!read(type))
            return fail("file ends inside the tensor index", t.name);
        const auto traits = ggmlTypeTraits(type);
        if (!traits) {
            Error e = m_out.error(ErrorCode::Unsupported,
                                  "unknown or unsupported tensor type " + std::to_string(type) +
                                      " (F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K are supported)",
                                  t.name);
            e.offset = m_pos - 4;
            return e;
        }
        t.type = static_cast<GgmlType>(type);
        uint64_t relOffset = 0;
        if (!read(relOffset))
            return fail("file ends inside the tensor index", t.name);
        // Element count without overflow: each dim <= 2^40, check the running product.
        uint64_t elements = 1;
        for (uint32_t d = 0; d < t.dimCount; ++d) {
            if (elements > (uint64_t(1) << 50) / t.dims[d])
                return fail("tensor has an absurd number of elements", t.name);
            elements *= t.dims[d];
        }
        if (t.dims[0] % traits->blockValues != 0)
            return fail("row length " + std::to_string(t.dims[0]) + " is not a multiple of the " + traits->name +
                            " block (" + std::to_string(traits->blockValues) + ")",
                        t.name);
        t.sizeBytes = elements / traits->blockValues * traits->blockBytes;
        if (relOffset % m_out.m_alignment != 0)
            return fail("tensor data offset " + std::to_string(relOffset) + " is not aligned to " +
                            std::to_string(m_out.m_alignment),
                        t.name);
        t.fileOffset = relOffset; // made absolute below, once the data section start is known
        if (!m_out.m_tensorIndex.emplace(name, m_out.m_tensors.size()).second)
            return fail("duplicate tensor name", t.name);
        m_out.m_tensors.push_back(std::move(t));
    }

    const uint64_t al = m_out.m_alignment;
    const uint64_t dataOffset = (m_pos + al - 1) / al * al;
    m_out.m_dataOffset = dataOffset;
    for (auto& t : m_out.m_tensors) {
        const uint64_t rel = t.fileOffset;
        if (dataOffset > m_size || rel > m_size - dataOffset || t.sizeBytes > m_size - dataOffset - rel) {
            Error e = m_out.error(ErrorCode::Format,
                                  "tensor data (" + std::to_string(t.sizeBytes) + " bytes at offset " +
                                      std::to_string(rel) + " of the data section) runs past the end of the file (" +
                                      std::to_string(m_size) + " bytes); the file may be truncated",
                                  t.name);
            e.offset = dataOffset + rel;
            return e;
        }
        t.fileOffset = dataOffset + rel;
    }
    return Ok{};
}

Expected<GgufFile> GgufFile::open(const std::string& path)
{
    auto mapped = MappedFile::open(path);
    if (!mapped)
        return mapped.error();
    GgufFile file;
    file.m_file = std::move(*mapped);
    GgufParser parser(file);
    auto status = parser.parse();
    if (!status)
        return status.error();
    return file;
}

Error GgufFile::error(ErrorCode code, std::string text, std::string field) const
{
    Error e = makeError(code, std::move(text), std::move(field));
    e.file = m_file ? m_file->path() : std::string();
    return e;
}

const GgufValue* GgufFile::find(std::string_view key) const
{
    const auto it = m_keyIndex.find(key);
    return it == m_keyIndex.end() ? nullptr : &m_metadata[it->second].value;
}

const GgufTensorInfo* GgufFile::findTensor(std::string_view name) const
{
    const auto it = m_tensorIndex.find(name);
    return it == m_tensorIndex.end() ? nullptr : &m_tensors[it->second];
}

template<typename T>
Expected<T> GgufFile::getInteger(std::string_view key) const
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

Expected<uint32_t> GgufFile::getU32(std::string_view key) const { return getInteger<uint32_t>(key); }
Expected<int32_t> GgufFile::getI32(std::string_view key) const { return getInteger<int32_t>(key); }
Expected<uint64_t> GgufFile::getU64(std::string_view key) const { return getInteger<uint64_t>(key); }

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
    const uint64_t n = scalarBytes(v->elementType);
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
