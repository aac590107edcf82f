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
    // Element counts in file order, up to the final norm; then the two RoPE tables (unused) and the classifier.
    const uint64_t counts[size_t(Llama2cTensor::RmsFinal) + 1] = {vocab * dim,
                                                                  layers * dim,
                                                                  layers * dim * dim,
                                                                  layers * dim * kvDim,
                                                                  layers * dim * kvDim,
                                                                  layers * dim * dim,
                                                                  layers * dim,
                                                                  layers * dim * hidden,
                                                                  layers * hidden * dim,
                                                                  layers * dim * hidden,
                                                                  dim};
    uint64_t offsets[kLlama2cTensors] = {};
    uint64_t floats = 0;
    for (size_t t = 0; t < std::size(counts); ++t) {
        offsets[t] = floats;
        floats += counts[t];
    }
    floats += uint64_t(hd.seqLen) * headSize; // freq_cis_real and freq_cis_imag, each seq_len * head_size / 2
    offsets[size_t(Llama2cTensor::Classifier)] = hd.sharedClassifier ? offsets[0] : floats;
    if (!hd.sharedClassifier)
        floats += vocab * dim;
    const uint64_t expected = kHeaderBytes + floats * sizeof(float);
    if (size != expected)
        return fail("file has " + std::to_string(size) + " bytes but the header implies " + std::to_string(expected) +
                        (size < expected ? " (truncated?)" : " (not a llama2.c checkpoint, or a different version?)"),
                    "size", std::min(size, expected));
    if (c.m_file->readableBytes() < size)
        return c; // the header only (readHeader): no weights to point at
    const float* base = reinterpret_cast<const float*>(c.m_file->data() + kHeaderBytes);
    for (size_t t = 0; t < kLlama2cTensors; ++t)
        c.m_tensors[t] = base + offsets[t];
    return c;
}

} // namespace ws
