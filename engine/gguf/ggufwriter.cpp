#include "engine/gguf/ggufwriter.h"

#include <cstdio>
#include <cstring>
#include <memory>

namespace ws {

namespace {
template <typename T> void put(std::vector<uint8_t>& out, T v)
{
    const size_t at = out.size();
    out.resize(at + sizeof(T));
    std::memcpy(out.data() + at, &v, sizeof(T));
}

void putString(std::vector<uint8_t>& out, const std::string& s)
{
    put<uint64_t>(out, s.size());
    out.insert(out.end(), s.begin(), s.end());
}

uint64_t alignUp(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}
} // namespace

void GgufWriter::addScalar(const std::string& key, GgufValueType type, const void* v, size_t n)
{
    std::vector<uint8_t> payload(n);
    std::memcpy(payload.data(), v, n);
    m_entries.push_back({key, static_cast<uint32_t>(type), std::move(payload)});
}

void GgufWriter::addString(const std::string& key, const std::string& v)
{
    std::vector<uint8_t> payload;
    putString(payload, v);
    m_entries.push_back({key, static_cast<uint32_t>(GgufValueType::String), std::move(payload)});
}

void GgufWriter::addStringArray(const std::string& key, const std::vector<std::string>& v)
{
    std::vector<uint8_t> payload;
    put<uint32_t>(payload, static_cast<uint32_t>(GgufValueType::String));
    put<uint64_t>(payload, v.size());
    for (const auto& s : v)
        putString(payload, s);
    m_entries.push_back({key, static_cast<uint32_t>(GgufValueType::Array), std::move(payload)});
}

void GgufWriter::addF32Array(const std::string& key, const std::vector<float>& v)
{
    std::vector<uint8_t> payload;
    put<uint32_t>(payload, static_cast<uint32_t>(GgufValueType::Float32));
    put<uint64_t>(payload, v.size());
    for (float f : v)
        put<float>(payload, f);
    m_entries.push_back({key, static_cast<uint32_t>(GgufValueType::Array), std::move(payload)});
}

void GgufWriter::addI32Array(const std::string& key, const std::vector<int32_t>& v)
{
    std::vector<uint8_t> payload;
    put<uint32_t>(payload, static_cast<uint32_t>(GgufValueType::Int32));
    put<uint64_t>(payload, v.size());
    for (int32_t i : v)
        put<int32_t>(payload, i);
    m_entries.push_back({key, static_cast<uint32_t>(GgufValueType::Array), std::move(payload)});
}

void GgufWriter::addRaw(const std::string& key, uint32_t typeNumber, std::vector<uint8_t> payload)
{
    m_entries.push_back({key, typeNumber, std::move(payload)});
}

void GgufWriter::addTensor(const std::string& name, GgmlType type, std::vector<uint64_t> dims,
                           std::vector<uint8_t> data)
{
    Tensor t;
    t.name = name;
    t.type = static_cast<uint32_t>(type);
    t.dims = std::move(dims);
    t.sizeBytes = data.size();
    t.data = std::move(data);
    m_tensors.push_back(std::move(t));
}

void GgufWriter::addTensor(const std::string& name, GgmlType type, std::vector<uint64_t> dims, uint64_t sizeBytes,
                           FillFunction fill)
{
    Tensor t;
    t.name = name;
    t.type = static_cast<uint32_t>(type);
    t.dims = std::move(dims);
    t.sizeBytes = sizeBytes;
    t.fill = std::move(fill);
    m_tensors.push_back(std::move(t));
}

std::vector<uint8_t> GgufWriter::header() const
{
    std::vector<uint8_t> out;
    put<uint32_t>(out, 0x46554747);
    put<uint32_t>(out, m_version);
    const bool writeAlignment = m_alignment != 32;
    put<uint64_t>(out, m_tensors.size());
    put<uint64_t>(out, m_entries.size() + (writeAlignment ? 1 : 0));
    if (writeAlignment) {
        putString(out, "general.alignment");
        put<uint32_t>(out, static_cast<uint32_t>(GgufValueType::UInt32));
        put<uint32_t>(out, m_alignment);
    }
    for (const auto& e : m_entries) {
        putString(out, e.key);
        put<uint32_t>(out, e.type);
        out.insert(out.end(), e.payload.begin(), e.payload.end());
    }
    uint64_t offset = 0;
    for (const auto& t : m_tensors) {
        putString(out, t.name);
        put<uint32_t>(out, static_cast<uint32_t>(t.dims.size()));
        for (uint64_t d : t.dims)
            put<uint64_t>(out, d);
        put<uint32_t>(out, t.type);
        put<uint64_t>(out, offset);
        offset = alignUp(offset + t.sizeBytes, m_alignment);
    }
    out.resize(alignUp(out.size(), m_alignment), 0);
    return out;
}

template <typename Sink> void GgufWriter::emit(Sink&& sink) const
{
    const std::vector<uint8_t> head = header();
    sink(head.data(), head.size());
    constexpr uint64_t kChunk = uint64_t(1) << 22;
    std::vector<uint8_t> buffer;
    for (size_t i = 0; i < m_tensors.size(); ++i) {
        const Tensor& t = m_tensors[i];
        if (t.fill) {
            buffer.resize(std::min<uint64_t>(kChunk, t.sizeBytes));
            for (uint64_t at = 0; at < t.sizeBytes; at += kChunk) {
                const uint64_t n = std::min<uint64_t>(kChunk, t.sizeBytes - at);
                t.fill(buffer.data(), at, n);
                sink(buffer.data(), n);
            }
        } else {
            sink(t.data.data(), t.data.size());
        }
        const uint64_t pad = alignUp(t.sizeBytes, m_alignment) - t.sizeBytes;
        if (pad > 0 && i + 1 < m_tensors.size()) {
            const std::vector<uint8_t> zeros(pad, 0);
            sink(zeros.data(), zeros.size());
        }
    }
}

std::vector<uint8_t> GgufWriter::toBytes() const
{
    std::vector<uint8_t> out;
    emit([&](const uint8_t* p, uint64_t n) { out.insert(out.end(), p, p + n); });
    return out;
}

Status GgufWriter::writeFile(const std::string& path) const
{
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!f) {
        Error e = makeError(ErrorCode::Io, "cannot create file");
        e.file = path;
        return e;
    }
    bool ok = true;
    emit([&](const uint8_t* p, uint64_t n) {
        if (ok && n > 0 && std::fwrite(p, 1, n, f.get()) != n)
            ok = false;
    });
    if (std::fflush(f.get()) != 0)
        ok = false;
    if (!ok) {
        Error e = makeError(ErrorCode::Io, "cannot write file");
        e.file = path;
        return e;
    }
    return Ok{};
}

} // namespace ws
