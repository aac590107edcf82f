#pragma once
// GGUF: the single-file model format of llama.cpp/ggml. A file is a header
// (magic "GGUF", version, tensor and key counts), typed key/value metadata
// (architecture, hyper-parameters, tokenizer vocabulary...), a tensor index
// (name, element type, dimensions, offset) and, after padding to the file's
// alignment, the tensor data. Versions 2 and 3 are read (little-endian only).
//
// GgufFile maps the file read-only and parses the header and index once; every
// count, length, offset and size is checked against the file size before use,
// so a truncated or corrupt file gives an Error naming the file, the field and
// the byte offset, never a read past the end. Metadata strings and tensor data
// are views into the mapping: they stay valid while any copy of the GgufFile
// (copies share the mapping) is alive.
//
// Dimensions follow ggml: dims[0] is the innermost (row length, contiguous),
// so a weight matrix of `rows` outputs by `cols` inputs has dims {cols, rows}.

#include "engine/core/error.h"
#include "engine/gguf/ggmltype.h"
#include "engine/gguf/mappedfile.h"

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ws {

enum class GgufValueType : uint32_t
{
    UInt8 = 0,
    Int8 = 1,
    UInt16 = 2,
    Int16 = 3,
    UInt32 = 4,
    Int32 = 5,
    Float32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    UInt64 = 10,
    Int64 = 11,
    Float64 = 12,
};

const char* ggufValueTypeName(GgufValueType type);
// Bytes of one scalar value; 0 for strings and arrays.
uint64_t ggufScalarBytes(GgufValueType type);

// One metadata value, not yet converted. Scalars and numeric arrays point at
// their little-endian bytes in the mapping; strings and string arrays are views.
struct GgufValue
{
    GgufValueType type = GgufValueType::UInt8;
    GgufValueType elementType = GgufValueType::UInt8; // arrays only
    uint64_t count = 0;                               // arrays: elements; strings: bytes
    const uint8_t* raw = nullptr;                     // scalar bytes, string bytes, numeric array elements
    std::vector<std::string_view> strings;            // string arrays only
    uint64_t fileOffset = 0;                          // where the value starts in the file
};

struct GgufKeyValue
{
    std::string key;
    GgufValue value;
};

struct GgufTensorInfo
{
    std::string name;
    GgmlType type = GgmlType::F32;
    uint32_t dimCount = 0;
    std::array<uint64_t, 4> dims{1, 1, 1, 1}; // dims[0] innermost; unused dims are 1
    uint64_t fileOffset = 0;                  // absolute offset of the data in the file
    uint64_t sizeBytes = 0;

    uint64_t elementCount() const { return dims[0] * dims[1] * dims[2] * dims[3]; }
    uint64_t rowLength() const { return dims[0]; }
    uint64_t rowCount() const { return elementCount() / dims[0]; }
};

class GgufFile
{
public:
    static Expected<GgufFile> open(const std::string& path, FileResidency residency = FileResidency::Mapped);
    // The header, metadata and tensor index only, read with plain reads: nothing is mapped, so a
    // loader can decide whether to open the file at all. tensorData() must not be used on it.
    static Expected<GgufFile> readHeader(const std::string& path);

    const std::string& path() const { return m_file->path(); }
    uint32_t version() const { return m_version; }
    uint64_t alignment() const { return m_alignment; }
    uint64_t fileSizeBytes() const { return m_file->sizeBytes(); }
    uint64_t dataOffset() const { return m_dataOffset; } // start of the tensor data section

    // Metadata in file order.
    const std::vector<GgufKeyValue>& metadata() const { return m_metadata; }
    bool has(std::string_view key) const { return find(key) != nullptr; }
    const GgufValue* find(std::string_view key) const;

    // Typed getters. NotFound when the key is absent; Format when the stored
    // type does not convert (integers convert between widths and signedness
    // when the value fits; floats accept F32 or F64).
    Expected<std::string_view> getString(std::string_view key) const;
    Expected<uint32_t> getU32(std::string_view key) const;
    Expected<int32_t> getI32(std::string_view key) const;
    Expected<uint64_t> getU64(std::string_view key) const;
    Expected<float> getF32(std::string_view key) const;
    Expected<bool> getBool(std::string_view key) const;
    Expected<std::span<const std::string_view>> getStringArray(std::string_view key) const;
    Expected<std::vector<float>> getF32Array(std::string_view key) const;
    Expected<std::vector<int32_t>> getI32Array(std::string_view key) const; // any integer element type that fits
    Expected<uint64_t> arrayLength(std::string_view key) const;

    // Same, with a fallback when the key is absent (a present key of the wrong type is still an error).
    Expected<uint32_t> getU32Or(std::string_view key, uint32_t fallback) const;
    Expected<float> getF32Or(std::string_view key, float fallback) const;
    Expected<bool> getBoolOr(std::string_view key, bool fallback) const;

    // Tensor index in file order.
    const std::vector<GgufTensorInfo>& tensors() const { return m_tensors; }
    const GgufTensorInfo* findTensor(std::string_view name) const;
    const uint8_t* tensorData(const GgufTensorInfo& info) const { return m_file->data() + info.fileOffset; }

    // The mapping, for readers that keep raw pointers (weights) alive with the file.
    std::shared_ptr<const MappedFile> mapping() const { return m_file; }

    // An Error with this file's path filled in.
    Error error(ErrorCode code, std::string text, std::string field = {}) const;

private:
    friend class GgufParser;
    GgufFile() = default;

    template <typename T> Expected<T> getInteger(std::string_view key) const;

    std::shared_ptr<const MappedFile> m_file;
    uint32_t m_version = 0;
    uint64_t m_alignment = 32;
    uint64_t m_dataOffset = 0;
    std::vector<GgufKeyValue> m_metadata;
    std::unordered_map<std::string_view, size_t> m_keyIndex; // views into m_metadata keys
    std::vector<GgufTensorInfo> m_tensors;
    std::unordered_map<std::string_view, size_t> m_tensorIndex; // views into m_tensors names
};

// Whether the file starts with GGUF's magic (else it may be a llama2.c checkpoint). IO errors name the file.
Expected<bool> isGgufFile(const std::string& path);

} // namespace ws
