#pragma once
// A small GGUF writer for tests and benchmarks: builds valid GGUF v2/v3 files
// (metadata of every type, tensors with their data padded to the alignment)
// and, on purpose, invalid ones (raw values, any tensor type number, dims that
// do not match the data) so the reader's error paths can be exercised.
// Tensor data is either given as bytes or produced by a callback while the
// file is written, so files larger than memory can be made.

#include "engine/core/error.h"
#include "engine/gguf/ggmltype.h"
#include "engine/gguf/gguffile.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ws {

class GgufWriter
{
public:
    // Fills `n` bytes at `dst` with the tensor bytes starting at `offset` within the tensor.
    using FillFunction = std::function<void(uint8_t* dst, uint64_t offset, uint64_t n)>;

    void setVersion(uint32_t version) { m_version = version; }
    // Alignment used for padding; also written as general.alignment when not 32.
    void setAlignment(uint32_t alignment) { m_alignment = alignment; }

    void addU8(const std::string& key, uint8_t v) { addScalar(key, GgufValueType::UInt8, &v, 1); }
    void addI8(const std::string& key, int8_t v) { addScalar(key, GgufValueType::Int8, &v, 1); }
    void addU16(const std::string& key, uint16_t v) { addScalar(key, GgufValueType::UInt16, &v, 2); }
    void addI16(const std::string& key, int16_t v) { addScalar(key, GgufValueType::Int16, &v, 2); }
    void addU32(const std::string& key, uint32_t v) { addScalar(key, GgufValueType::UInt32, &v, 4); }
    void addI32(const std::string& key, int32_t v) { addScalar(key, GgufValueType::Int32, &v, 4); }
    void addU64(const std::string& key, uint64_t v) { addScalar(key, GgufValueType::UInt64, &v, 8); }
    void addI64(const std::string& key, int64_t v) { addScalar(key, GgufValueType::Int64, &v, 8); }
    void addF32(const std::string& key, float v) { addScalar(key, GgufValueType::Float32, &v, 4); }
    void addF64(const std::string& key, double v) { addScalar(key, GgufValueType::Float64, &v, 8); }
    void addBool(const std::string& key, bool v)
    {
        const uint8_t b = v ? 1 : 0;
        addScalar(key, GgufValueType::Bool, &b, 1);
    }
    void addString(const std::string& key, const std::string& v);
    void addStringArray(const std::string& key, const std::vector<std::string>& v);
    void addF32Array(const std::string& key, const std::vector<float>& v);
    void addI32Array(const std::string& key, const std::vector<int32_t>& v);
    // A value whose bytes after the 4-byte type are written verbatim (for corrupt files).
    void addRaw(const std::string& key, uint32_t typeNumber, std::vector<uint8_t> payload);

    // dims[0] innermost. The data is written as given; its size is not checked against dims.
    void addTensor(const std::string& name, GgmlType type, std::vector<uint64_t> dims, std::vector<uint8_t> data);
    void addTensor(const std::string& name, GgmlType type, std::vector<uint64_t> dims, uint64_t sizeBytes,
                   FillFunction fill);

    std::vector<uint8_t> toBytes() const;
    Status writeFile(const std::string& path) const;

private:
    struct Entry
    {
        std::string key;
        uint32_t type = 0;
        std::vector<uint8_t> payload;
    };
    struct Tensor
    {
        std::string name;
        uint32_t type = 0;
        std::vector<uint64_t> dims;
        uint64_t sizeBytes = 0;
        std::vector<uint8_t> data;
        FillFunction fill;
    };

    void addScalar(const std::string& key, GgufValueType type, const void* v, size_t n);
    std::vector<uint8_t> header() const; // everything before the data section, padded
    template <typename Sink> void emit(Sink&& sink) const;

    uint32_t m_version = 3;
    uint32_t m_alignment = 32;
    std::vector<Entry> m_entries;
    std::vector<Tensor> m_tensors;
};

} // namespace ws
