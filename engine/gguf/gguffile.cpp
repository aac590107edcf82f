// GgufFile: parsing the header, metadata and tensor index of a mapped file
// (the typed metadata getters are in ggufmetadata.cpp).
#include "engine/gguf/gguffile.h"

#include <cstring>
#include <limits>

namespace ws {

namespace {

constexpr uint32_t kGgufMagic = 0x46554747; // "GGUF" little-endian
constexpr uint64_t kMaxStringBytes = uint64_t(1) << 30;
constexpr uint32_t kMaxDims = 4;

template <typename T> T loadLe(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

} // namespace

// Parses the header and index of a mapped file with a bounds-checked cursor.
class GgufParser
{
public:
    explicit GgufParser(GgufFile& out)
        : m_out(out), m_data(out.m_file->data()), m_size(out.m_file->readableBytes()),
          m_fileSize(out.m_file->sizeBytes())
    {
    }

    Status parse();

private:
    Error fail(std::string text, std::string field = {}) const
    {
        Error e = m_out.error(ErrorCode::Format, std::move(text), std::move(field));
        e.offset = m_pos;
        return e;
    }
    bool need(uint64_t bytes) const { return bytes <= m_size - m_pos; }
    template <typename T> bool read(T& v)
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
    uint64_t m_size;     // bytes the cursor may read (all of a mapped file, the prefix of a header read)
    uint64_t m_fileSize; // the whole file, which the tensor data must lie in
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
        const uint64_t n = ggufScalarBytes(v.type);
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
    const uint64_t elemBytes = ggufScalarBytes(v.elementType);
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
    if (m_size == 0)
        return fail("the file is empty", "magic");
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
            Error e = m_out.error(
                ErrorCode::Unsupported,
                "unknown or unsupported tensor type " + std::to_string(type) +
                    " (supported: F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K-Q6_K, IQ4_NL, IQ4_XS, MXFP4)",
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
        if (dataOffset > m_fileSize || rel > m_fileSize - dataOffset || t.sizeBytes > m_fileSize - dataOffset - rel) {
            Error e = m_out.error(ErrorCode::Format,
                                  "tensor data (" + std::to_string(t.sizeBytes) + " bytes at offset " +
                                      std::to_string(rel) + " of the data section) runs past the end of the file (" +
                                      std::to_string(m_fileSize) + " bytes); the file may be truncated",
                                  t.name);
            e.offset = dataOffset + rel;
            return e;
        }
        t.fileOffset = dataOffset + rel;
    }
    return Ok{};
}

Expected<GgufFile> GgufFile::open(const std::string& path, FileResidency residency)
{
    auto mapped = MappedFile::open(path, residency);
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

Expected<GgufFile> GgufFile::readHeader(const std::string& path)
{
    // Headers are a few MB (a 150,000-token vocabulary with its merges): read 4 MiB, and twice as much
    // while the header runs past what was read, up to 1 GiB.
    constexpr uint64_t kFirst = uint64_t(4) << 20, kMost = uint64_t(1) << 30;
    for (uint64_t bytes = kFirst;; bytes *= 2) {
        auto prefix = MappedFile::readPrefix(path, bytes);
        if (!prefix)
            return prefix.error();
        GgufFile file;
        file.m_file = std::move(*prefix);
        GgufParser parser(file);
        auto status = parser.parse();
        if (status)
            return file;
        if (file.m_file->readableBytes() == file.m_file->sizeBytes() || bytes >= kMost)
            return status.error();
    }
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

Expected<bool> isGgufFile(const std::string& path)
{
    auto head = MappedFile::readPrefix(path, 4);
    if (!head)
        return head.error();
    return (*head)->readableBytes() == 4 && loadLe<uint32_t>((*head)->data()) == kGgufMagic;
}

} // namespace ws
