#pragma once
// llama2.c checkpoints (Karpathy's run.c format): a header of seven int32
// (dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len) then
// float32 arrays in a fixed order: token embeddings, attention RMSNorm
// weights, wq, wk, wv, wo, FFN RMSNorm weights, w1, w2, w3, final RMSNorm,
// two legacy RoPE tables (skipped), and the classifier. A positive vocab_size
// means the classifier shares the embedding table; a negative one means a
// separate classifier follows (vocab_size is its absolute value).
// Matrices are row-major (output, input), like GGUF's dims {input, output}.
// The file is mapped read-only; the size must be exactly what the header
// implies (or larger only by nothing: any mismatch is reported).

#include "engine/core/error.h"
#include "engine/gguf/mappedfile.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace ws {

struct Llama2cHeader
{
    int32_t dim = 0;
    int32_t hiddenDim = 0;
    int32_t layerCount = 0;
    int32_t headCount = 0;
    int32_t kvHeadCount = 0;
    int32_t vocabSize = 0; // absolute value
    int32_t seqLen = 0;
    bool sharedClassifier = true;

    int32_t headSize() const { return dim / headCount; }
};

// The checkpoint's tensors in file order (run.c's memory_map_weights), with their shapes. The RoPE tables
// between the final norm and the classifier are not read; a shared classifier is the token embedding.
enum class Llama2cTensor
{
    TokenEmbedding, // (vocab, dim)
    RmsAttention,   // (layer, dim)
    Wq,             // (layer, n_heads*head_size, dim)
    Wk,             // (layer, n_kv_heads*head_size, dim)
    Wv,             // (layer, n_kv_heads*head_size, dim)
    Wo,             // (layer, dim, n_heads*head_size)
    RmsFfn,         // (layer, dim)
    W1,             // (layer, hidden_dim, dim)
    W2,             // (layer, dim, hidden_dim)
    W3,             // (layer, hidden_dim, dim)
    RmsFinal,       // (dim)
    Classifier,     // (vocab, dim)
};
constexpr size_t kLlama2cTensors = size_t(Llama2cTensor::Classifier) + 1;

class Llama2cCheckpoint
{
public:
    static Expected<Llama2cCheckpoint> open(const std::string& path, FileResidency residency = FileResidency::Mapped);
    // The header alone, read and checked (the file size included) with plain reads, nothing mapped.
    static Expected<Llama2cHeader> readHeader(const std::string& path);

    const Llama2cHeader& header() const { return m_header; }
    const std::string& path() const { return m_file->path(); }
    std::shared_ptr<const MappedFile> mapping() const { return m_file; }

    // A tensor in the mapping (float32; per-layer arrays concatenated over layers), null when only the header
    // was read.
    const float* tensor(Llama2cTensor t) const { return m_tensors[size_t(t)]; }

private:
    Llama2cCheckpoint() = default;
    static Expected<Llama2cCheckpoint> parse(Expected<std::shared_ptr<const MappedFile>> file, const std::string& path);

    std::shared_ptr<const MappedFile> m_file;
    Llama2cHeader m_header;
    std::array<const float*, kLlama2cTensors> m_tensors{};
};

} // namespace ws
