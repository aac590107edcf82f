#include "engine/gguf/llama2ccheckpoint.h"

#include <cstring>

namespace ws {

Expected<Llama2cCheckpoint> Llama2cCheckpoint::open(const std::string& path, FileResidency residency)
{
    return parse(MappedFile::open(path, residency), path);
}

Expected<Llama2cHeader> Llama2cCheckpoint::readHeader(const std::string& path)
{
    auto checkpoint = parse(MappedFile::readPrefix(path, 7 * sizeof(int32_t)), path);
    if (!checkpoint)
        return checkpoint.error();
    return checkpoint->header();
}

Expected<Llama2cCheckpoint> Llama2cCheckpoint::parse(Expected<std::shared_ptr<const MappedFile>> mapped,
                                                     const std::string& path)
{
    if (!mapped)
        return mapped.error();
    Llama2cCheckpoint c;
    c.m_file = std::move(*mapped);
    const uint64_t size = c.m_file->sizeBytes();
    auto fail = [&](std::string text, std::string field, uint64_t offset) {
        Error e = makeError(ErrorCode::Format, std::move(text), std::move(field));
        e.file = path;
        e.offset = offset;
        return e;
    };
    constexpr uint64_t kHeaderBytes = 7 * sizeof(int32_t);
    if (size == 0)
        return fail("the file is empty", "header", 0);
    if (size < kHeaderBytes)
        return fail("the file is too short for a llama2.c header (" + std::to_string(size) + " bytes, the header " +
                        std::to_string(kHeaderBytes) + ")",
                    "header", 0);
    int32_t h[7];
    std::memcpy(h, c.m_file->data(), sizeof(h));
    const char* names[7] = {"dim", "hidden_dim", "n_layers", "n_heads", "n_kv_heads", "vocab_size", "seq_len"};
    // Limits far above any real model but small enough that products cannot overflow 64 bits.
    const int64_t limits[7] = {1 << 16, 1 << 18, 1 << 10, 1 << 10, 1 << 10, 1 << 22, 1 << 24};
    for (int i = 0; i < 7; ++i) {
        const int64_t v = i == 5 ? (h[i] < 0 ? -int64_t(h[i]) : h[i]) : h[i];
        if (v <= 0 || v > limits[i])
            return fail("value " + std::to_string(h[i]) + " is out of range", names[i], uint64_t(i) * 4);
    }
    Llama2cHeader& hd = c.m_header;
    hd.dim = h[0];
    hd.hiddenDim = h[1];
    hd.layerCount = h[2];
    hd.headCount = h[3];
    hd.kvHeadCount = h[4];
    hd.sharedClassifier = h[5] > 0;
    hd.vocabSize = h[5] < 0 ? -h[5] : h[5];
    hd.seqLen = h[6];
    if (hd.dim % hd.headCount != 0)
        return fail("dim " + std::to_string(hd.dim) + " is not a multiple of n_heads", "n_heads", 12);
    if (hd.headCount % hd.kvHeadCount != 0)
        return fail("n_heads is not a multiple of n_kv_heads", "n_kv_heads", 16);
    if (hd.headSize() % 2 != 0)
        return fail("head size is odd", "n_heads", 12);

    const uint64_t dim = uint64_t(hd.dim), hidden = uint64_t(hd.hiddenDim), layers = uint64_t(hd.layerCount);
    const uint64_t kvDim = dim / uint64_t(hd.headCount) * uint64_t(hd.kvHeadCount);
    const uint64_t vocab = uint64_t(hd.vocabSize);
    const uint64_t headSize = dim / uint64_t(hd.headCount);
    uint64_t floats = 0;
    auto take = [&](uint64_t count) {
        const uint64_t at = floats;
        floats += count;
        return at;
    };
    const uint64_t oEmb = take(vocab * dim);
    const uint64_t oRmsAtt = take(layers * dim);
    const uint64_t oWq = take(layers * dim * dim);
    const uint64_t oWk = take(layers * dim * kvDim);
    const uint64_t oWv = take(layers * dim * kvDim);
    const uint64_t oWo = take(layers * dim * dim);
    const uint64_t oRmsFfn = take(layers * dim);
    const uint64_t oW1 = take(layers * dim * hidden);
    const uint64_t oW2 = take(layers * hidden * dim);
    const uint64_t oW3 = take(layers * dim * hidden);
    const uint64_t oRmsFinal = take(dim);
    take(uint64_t(hd.seqLen) * headSize / 2); // freq_cis_real (unused)
    take(uint64_t(hd.seqLen) * headSize / 2); // freq_cis_imag (unused)
    const uint64_t oCls = hd.sharedClassifier ? oEmb : take(vocab * dim);
    const uint64_t expected = kHeaderBytes + floats * sizeof(float);
    if (size != expected)
        return fail("file has " + std::to_string(size) + " bytes but the header implies " + std::to_string(expected) +
                        (size < expected ? " (truncated?)" : " (not a llama2.c checkpoint, or a different version?)"),
                    "size", std::min(size, expected));
    if (c.m_file->readableBytes() < size)
        return c; // the header only (readHeader): no weights to point at
    const float* base = reinterpret_cast<const float*>(c.m_file->data() + kHeaderBytes);
    c.m_tokenEmbedding = base + oEmb;
    c.m_rmsAttention = base + oRmsAtt;
    c.m_wq = base + oWq;
    c.m_wk = base + oWk;
    c.m_wv = base + oWv;
    c.m_wo = base + oWo;
    c.m_rmsFfn = base + oRmsFfn;
    c.m_w1 = base + oW1;
    c.m_w2 = base + oW2;
    c.m_w3 = base + oW3;
    c.m_rmsFinal = base + oRmsFinal;
    c.m_classifier = base + oCls;
    return c;
}

} // namespace ws
