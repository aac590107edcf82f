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

class Llama2cCheckpoint
{
public:
    static Expected<Llama2cCheckpoint> open(const std::string& path, FileResidency residency = FileResidency::Mapped);
    // The header alone, read and checked (the file size included) with plain reads, nothing mapped.
    static Expected<Llama2cHeader> readHeader(const std::string& path);

    const Llama2cHeader& header() const { return m_header; }
    const std::string& path() const { return m_file->path(); }
    std::shared_ptr<const MappedFile> mapping() const { return m_file; }

    // Pointers into the mapping (all float32). Per-layer arrays are concatenated over layers.
    const float* tokenEmbedding() const { return m_tokenEmbedding; } // (vocab, dim)
    const float* rmsAttention() const { return m_rmsAttention; }     // (layer, dim)
    const float* wq() const { return m_wq; }                         // (layer, n_heads*head_size, dim)
    const float* wk() const { return m_wk; }                         // (layer, n_kv_heads*head_size, dim)
    const float* wv() const { return m_wv; }                         // (layer, n_kv_heads*head_size, dim)
    const float* wo() const { return m_wo; }                         // (layer, dim, n_heads*head_size)
    const float* rmsFfn() const { return m_rmsFfn; }                 // (layer, dim)
    const float* w1() const { return m_w1; }                         // (layer, hidden_dim, dim)
    const float* w2() const { return m_w2; }                         // (layer, dim, hidden_dim)
    const float* w3() const { return m_w3; }                         // (layer, hidden_dim, dim)
    const float* rmsFinal() const { return m_rmsFinal; }             // (dim)
    const float* classifier() const { return m_classifier; }         // (vocab, dim)

private:
    Llama2cCheckpoint() = default;
    static Expected<Llama2cCheckpoint> parse(Expected<std::shared_ptr<const MappedFile>> file, const std::string& path);

    std::shared_ptr<const MappedFile> m_file;
    Llama2cHeader m_header;
    const float* m_tokenEmbedding = nullptr;
    const float* m_rmsAttention = nullptr;
    const float* m_wq = nullptr;
    const float* m_wk = nullptr;
    const float* m_wv = nullptr;
    const float* m_wo = nullptr;
    const float* m_rmsFfn = nullptr;
    const float* m_w1 = nullptr;
    const float* m_w2 = nullptr;
    const float* m_w3 = nullptr;
    const float* m_rmsFinal = nullptr;
    const float* m_classifier = nullptr;
};

} // namespace ws
