#include "engine/gguf/syntheticmodel.h"

#include "engine/gguf/ggufwriter.h"

#include <cmath>
#include <cstring>
#include <random>

#include <immintrin.h>

namespace ws {

namespace {

uint16_t toF16(float f)
{
    return static_cast<uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}

uint16_t toBf16(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return static_cast<uint16_t>((u + (0x7fff + ((u >> 16) & 1))) >> 16);
}

// A row generator: deterministic in (seed, tensor index, row), so rows can be produced in any order.
class RowSource
{
public:
    RowSource(uint64_t seed, uint64_t tensor, GgmlType type, int cols, float stddev)
        : m_seed(seed * 0x9E3779B97F4A7C15ull + tensor), m_type(type), m_cols(cols), m_std(stddev)
    {
        const auto t = ggmlTypeTraits(static_cast<uint32_t>(type));
        m_rowBytes = uint64_t(cols) / t->blockValues * t->blockBytes;
    }
    uint64_t rowBytes() const { return m_rowBytes; }

    void row(uint64_t r, uint8_t* dst) const
    {
        std::mt19937_64 rng(m_seed ^ (r * 0xD1B54A32D192ED03ull));
        switch (m_type) {
        case GgmlType::Q4_K:
            return randomBlocks(rng, dst, 144, 256);
        case GgmlType::Q5_K:
            return randomBlocks(rng, dst, 176, 256);
        case GgmlType::Q6_K:
            return randomBlocks(rng, dst, 210, 256);
        case GgmlType::Q8_0:
            return randomQ8_0(rng, dst);
        default:
            break;
        }
        std::normal_distribution<float> normal(0.0f, m_std);
        thread_local std::vector<float> values;
        values.resize(size_t(m_cols));
        for (float& v : values)
            v = normal(rng);
        encodeRow(m_type, values.data(), dst, m_cols);
    }

private:
    // Uniform int8 quants in [-127, 127] (standard deviation 73.3): fast enough for multi-GB files.
    void randomQ8_0(std::mt19937_64& rng, uint8_t* dst) const
    {
        const uint16_t d = toF16(m_std / 73.3f);
        for (int b = 0; b < m_cols / 32; ++b) {
            uint8_t* blk = dst + size_t(b) * 34;
            std::memcpy(blk, &d, 2);
            for (int j = 0; j < 32; j += 8) {
                uint64_t r = rng();
                for (int k = 0; k < 8; ++k, r >>= 8) {
                    const int8_t q = static_cast<int8_t>(r & 0xff);
                    blk[2 + j + k] = static_cast<uint8_t>(q == -128 ? int8_t(-127) : q);
                }
            }
        }
    }

    // Random quants with scales giving values of about m_std.
    void randomBlocks(std::mt19937_64& rng, uint8_t* dst, int blockBytes, int values) const
    {
        const int blocks = m_cols / values;
        for (int b = 0; b < blocks; ++b) {
            uint8_t* blk = dst + size_t(b) * size_t(blockBytes);
            for (int i = 0; i < blockBytes; ++i)
                blk[i] = static_cast<uint8_t>(rng());
            if (m_type == GgmlType::Q4_K || m_type == GgmlType::Q5_K) {
                const uint16_t d = toF16(m_std / 63.0f * 0.5f);
                const uint16_t dmin = toF16(m_std / 63.0f * 0.5f);
                std::memcpy(blk, &d, 2);
                std::memcpy(blk + 2, &dmin, 2);
            } else {
                for (int i = 192; i < 208; ++i)
                    blk[i] = static_cast<uint8_t>(rng() % 64); // positive 8-bit sub-scales
                const uint16_t d = toF16(m_std / (32.0f * 32.0f) * 2.0f);
                std::memcpy(blk + 208, &d, 2);
            }
        }
    }

    uint64_t m_seed;
    GgmlType m_type;
    int m_cols;
    float m_std;
    uint64_t m_rowBytes = 0;
};

} // namespace

void encodeRow(GgmlType type, const float* src, uint8_t* dst, int n)
{
    switch (type) {
    case GgmlType::F32:
        std::memcpy(dst, src, size_t(n) * 4);
        return;
    case GgmlType::F16:
        for (int i = 0; i < n; ++i) {
            const uint16_t h = toF16(src[i]);
            std::memcpy(dst + 2 * i, &h, 2);
        }
        return;
    case GgmlType::BF16:
        for (int i = 0; i < n; ++i) {
            const uint16_t h = toBf16(src[i]);
            std::memcpy(dst + 2 * i, &h, 2);
        }
        return;
    case GgmlType::Q8_0:
        for (int b = 0; b < n / 32; ++b) {
            float amax = 0.0f;
            for (int j = 0; j < 32; ++j)
                amax = std::max(amax, std::fabs(src[b * 32 + j]));
            const float d = amax / 127.0f;
            const float id = d != 0.0f ? 1.0f / d : 0.0f;
            const uint16_t h = toF16(d);
            uint8_t* blk = dst + b * 34;
            std::memcpy(blk, &h, 2);
            for (int j = 0; j < 32; ++j)
                blk[2 + j] = static_cast<uint8_t>(static_cast<int8_t>(std::round(src[b * 32 + j] * id)));
        }
        return;
    case GgmlType::Q4_0:
        for (int b = 0; b < n / 32; ++b) {
            float amax = 0.0f, maxv = 0.0f;
            for (int j = 0; j < 32; ++j) {
                if (std::fabs(src[b * 32 + j]) > amax) {
                    amax = std::fabs(src[b * 32 + j]);
                    maxv = src[b * 32 + j];
                }
            }
            const float d = maxv / -8.0f;
            const float id = d != 0.0f ? 1.0f / d : 0.0f;
            const uint16_t h = toF16(d);
            uint8_t* blk = dst + b * 18;
            std::memcpy(blk, &h, 2);
            for (int j = 0; j < 16; ++j) {
                const int q0 = std::min(15, int(src[b * 32 + j] * id + 8.5f));
                const int q1 = std::min(15, int(src[b * 32 + j + 16] * id + 8.5f));
                blk[2 + j] = static_cast<uint8_t>(q0 | (q1 << 4));
            }
        }
        return;
    default:
        std::memset(dst, 0, size_t(n));
        return;
    }
}

Status writeSyntheticModel(const std::string& path, const SyntheticModelSpec& s)
{
    const int headDim = s.headDim > 0 ? s.headDim : s.dim / s.headCount;
    const int qDim = s.headCount * headDim, kvDim = s.kvHeadCount * headDim;
    GgufWriter w;
    const std::string a = s.architecture + ".";
    w.addString("general.architecture", s.architecture);
    w.addString("general.description", "RANDOM WEIGHTS (synthetic test model)");
    w.addU32(a + "embedding_length", uint32_t(s.dim));
    w.addU32(a + "feed_forward_length", uint32_t(s.hiddenDim));
    w.addU32(a + "block_count", uint32_t(s.layerCount));
    w.addU32(a + "attention.head_count", uint32_t(s.headCount));
    w.addU32(a + "attention.head_count_kv", uint32_t(s.kvHeadCount));
    w.addU32(a + "context_length", uint32_t(s.contextLength));
    w.addF32(a + "rope.freq_base", s.ropeTheta);
    w.addF32(a + "attention.layer_norm_rms_epsilon", s.rmsNormEps);
    if (s.headDim > 0) {
        w.addU32(a + "attention.key_length", uint32_t(headDim));
        w.addU32(a + "attention.value_length", uint32_t(headDim));
    }
    if (s.eosTokenId >= 0)
        w.addU32("tokenizer.ggml.eos_token_id", uint32_t(s.eosTokenId));

    uint64_t tensorIndex = 0;
    auto matrix = [&](const std::string& name, GgmlType type, int rows, int cols, float stddev) {
        auto src = std::make_shared<RowSource>(s.seed, tensorIndex++, type, cols, stddev);
        const uint64_t rowBytes = src->rowBytes();
        w.addTensor(name, type, {uint64_t(cols), uint64_t(rows)}, rowBytes * uint64_t(rows),
                    [src, rowBytes](uint8_t* dst, uint64_t offset, uint64_t n) {
                        // Chunks are multiples of 4 MiB; rows may straddle them, so build rows into a buffer.
                        std::vector<uint8_t> buf(rowBytes);
                        uint64_t at = offset;
                        while (at < offset + n) {
                            const uint64_t r = at / rowBytes, within = at % rowBytes;
                            src->row(r, buf.data());
                            const uint64_t take = std::min(rowBytes - within, offset + n - at);
                            std::memcpy(dst + (at - offset), buf.data() + within, take);
                            at += take;
                        }
                    });
    };
    auto vector = [&](const std::string& name, int n, float base, float spread) {
        std::mt19937_64 rng(s.seed * 31 + tensorIndex++);
        std::uniform_real_distribution<float> u(-spread, spread);
        std::vector<uint8_t> bytes(size_t(n) * 4);
        for (int i = 0; i < n; ++i) {
            const float v = base + u(rng);
            std::memcpy(bytes.data() + 4 * i, &v, 4);
        }
        w.addTensor(name, GgmlType::F32, {uint64_t(n)}, std::move(bytes));
    };
    matrix("token_embd.weight", s.embeddingType, s.vocabSize, s.dim, 1.0f);
    vector("output_norm.weight", s.dim, 1.0f, 0.2f);
    if (!s.tiedOutput)
        matrix("output.weight", s.embeddingType, s.vocabSize, s.dim, 1.0f / std::sqrt(float(s.dim)));
    for (int l = 0; l < s.layerCount; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        vector(p + "attn_norm.weight", s.dim, 1.0f, 0.2f);
        matrix(p + "attn_q.weight", s.matrixType, qDim, s.dim, 1.0f / std::sqrt(float(s.dim)));
        matrix(p + "attn_k.weight", s.matrixType, kvDim, s.dim, 1.0f / std::sqrt(float(s.dim)));
        matrix(p + "attn_v.weight", s.matrixType, kvDim, s.dim, 1.0f / std::sqrt(float(s.dim)));
        matrix(p + "attn_output.weight", s.matrixType, s.dim, qDim, 1.0f / std::sqrt(float(qDim)));
        if (s.architecture == "qwen2") {
            vector(p + "attn_q.bias", qDim, 0.0f, 0.5f);
            vector(p + "attn_k.bias", kvDim, 0.0f, 0.5f);
            vector(p + "attn_v.bias", kvDim, 0.0f, 0.5f);
        }
        if (s.architecture == "qwen3") {
            vector(p + "attn_q_norm.weight", headDim, 1.0f, 0.3f);
            vector(p + "attn_k_norm.weight", headDim, 1.0f, 0.3f);
        }
        vector(p + "ffn_norm.weight", s.dim, 1.0f, 0.2f);
        matrix(p + "ffn_gate.weight", s.matrixType, s.hiddenDim, s.dim, 1.0f / std::sqrt(float(s.dim)));
        matrix(p + "ffn_up.weight", s.matrixType, s.hiddenDim, s.dim, 1.0f / std::sqrt(float(s.dim)));
        matrix(p + "ffn_down.weight", s.matrixType, s.dim, s.hiddenDim, 1.0f / std::sqrt(float(s.hiddenDim)));
    }
    return w.writeFile(path);
}

} // namespace ws
