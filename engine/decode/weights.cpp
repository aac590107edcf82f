#include "engine/decode/weights.h"

#include "engine/decode/kernels.h"
#include "engine/gguf/gguffile.h"
#include "engine/gguf/llama2ccheckpoint.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace ws {

namespace {

class GgufWeightReader
{
public:
    explicit GgufWeightReader(const GgufFile& file) : m_file(file) {}

    std::optional<Error> matrix(const std::string& name, int rows, int cols, WeightMatrix& out, bool optional = false)
    {
        const GgufTensorInfo* t = m_file.findTensor(name);
        if (!t) {
            if (optional)
                return std::nullopt;
            return m_file.error(ErrorCode::Format, "tensor is missing", name);
        }
        if (t->dimCount > 2 || t->dims[0] != uint64_t(cols) || t->dims[1] != uint64_t(rows))
            return m_file.error(ErrorCode::Format,
                                "has shape " + shape(*t) + ", expected [" + std::to_string(cols) + ", " +
                                    std::to_string(rows) + "]",
                                name);
        fill(*t, rows, cols, out);
        return std::nullopt;
    }

    // A stacked expert tensor [cols, rows, count] as one matrix view per expert.
    std::optional<Error> experts(const std::string& name, int count, int rows, int cols, std::vector<WeightMatrix>& out)
    {
        const GgufTensorInfo* t = m_file.findTensor(name);
        if (!t)
            return m_file.error(ErrorCode::Format, "tensor is missing", name);
        if (t->dimCount != 3 || t->dims[0] != uint64_t(cols) || t->dims[1] != uint64_t(rows) ||
            t->dims[2] != uint64_t(count))
            return m_file.error(ErrorCode::Format,
                                "has shape " + shape(*t) + ", expected [" + std::to_string(cols) + ", " +
                                    std::to_string(rows) + ", " + std::to_string(count) + "]",
                                name);
        WeightMatrix first;
        fill(*t, rows, cols, first);
        first.expertSlice = true;
        out.assign(size_t(count), first);
        for (int e = 0; e < count; ++e)
            out[size_t(e)].data = first.data + first.sizeBytes() * size_t(e);
        return std::nullopt;
    }

    // A stacked F32 bias [length, count]: one row of `length` per expert.
    std::optional<Error> vectors(const std::string& name, int length, int count, const float*& out)
    {
        const GgufTensorInfo* t = m_file.findTensor(name);
        if (!t)
            return m_file.error(ErrorCode::Format, "tensor is missing", name);
        if (t->type != GgmlType::F32)
            return m_file.error(ErrorCode::Unsupported,
                                std::string("is ") + ggmlTypeName(t->type) + ", norms and biases must be F32", name);
        if (t->dimCount != 2 || t->dims[0] != uint64_t(length) || t->dims[1] != uint64_t(count))
            return m_file.error(ErrorCode::Format,
                                "has shape " + shape(*t) + ", expected [" + std::to_string(length) + ", " +
                                    std::to_string(count) + "]",
                                name);
        out = reinterpret_cast<const float*>(m_file.tensorData(*t));
        return std::nullopt;
    }

    std::optional<Error> vector(const std::string& name, int length, const float*& out, bool optional = false)
    {
        const GgufTensorInfo* t = m_file.findTensor(name);
        if (!t) {
            if (optional)
                return std::nullopt;
            return m_file.error(ErrorCode::Format, "tensor is missing", name);
        }
        if (t->type != GgmlType::F32)
            return m_file.error(ErrorCode::Unsupported,
                                std::string("is ") + ggmlTypeName(t->type) + ", norms and biases must be F32", name);
        if (t->elementCount() != uint64_t(length) || t->dims[0] != uint64_t(length))
            return m_file.error(ErrorCode::Format,
                                "has shape " + shape(*t) + ", expected [" + std::to_string(length) + "]", name);
        out = reinterpret_cast<const float*>(m_file.tensorData(*t));
        return std::nullopt;
    }

private:
    void fill(const GgufTensorInfo& t, int rows, int cols, WeightMatrix& out) const
    {
        const auto traits = ggmlTypeTraits(static_cast<uint32_t>(t.type));
        out.type = t.type;
        out.rows = rows;
        out.cols = cols;
        out.rowBytes = size_t(cols) / traits->blockValues * traits->blockBytes;
        out.data = m_file.tensorData(t);
        // llama.cpp repacks these types (2-D for mul_mat, 3-D expert stacks for mul_mat_id alike).
        const bool repackable = t.type == GgmlType::Q4_K || t.type == GgmlType::IQ4_NL || t.type == GgmlType::MXFP4;
        out.interleaved = repackable && rows % 8 == 0;
    }

    static std::string shape(const GgufTensorInfo& t)
    {
        std::string s = "[";
        for (uint32_t i = 0; i < t.dimCount; ++i)
            s += (i ? ", " : "") + std::to_string(t.dims[i]);
        return s + "]";
    }

    const GgufFile& m_file;
};

WeightMatrix f32Matrix(const float* data, int rows, int cols)
{
    WeightMatrix m;
    m.type = GgmlType::F32;
    m.rows = rows;
    m.cols = cols;
    m.rowBytes = size_t(cols) * sizeof(float);
    m.data = reinterpret_cast<const uint8_t*>(data);
    return m;
}

} // namespace

uint64_t TransformerWeights::bytesPerToken() const
{
    uint64_t bytes = output.sizeBytes() + tokenEmbedding.rowBytes;
    for (const auto& l : layers) {
        bytes += l.wq.sizeBytes() + l.wk.sizeBytes() + l.wv.sizeBytes() + l.wo.sizeBytes() + l.gate.sizeBytes() +
                 l.up.sizeBytes() + l.down.sizeBytes() + l.router.sizeBytes();
        if (!l.expertUp.empty()) {
            const uint64_t expert =
                l.expertGate[0].sizeBytes() + l.expertUp[0].sizeBytes() + l.expertDown[0].sizeBytes();
            bytes += expert * uint64_t(usedExperts);
        }
    }
    return bytes;
}

Status TransformerWeights::packForKernels()
{
    if (!mapping || !mapping->isResident())
        return Ok{};
    std::vector<WeightMatrix*> matrices;
    auto consider = [&](WeightMatrix& m) {
        if (m.type == GgmlType::Q4_K && m.interleaved && !m.packed && m.data &&
            m.cols / 256 <= kernels::kPackedQ4_KMaxBlocks)
            matrices.push_back(&m);
    };
    for (LayerWeights& l : layers) {
        for (WeightMatrix* m : {&l.wq, &l.wk, &l.wv, &l.wo, &l.gate, &l.up, &l.down, &l.router})
            consider(*m);
        for (auto* stack : {&l.expertGate, &l.expertUp, &l.expertDown})
            for (WeightMatrix& m : *stack)
                consider(m);
    }
    if (matrices.empty())
        return Ok{};
    const uint8_t* base = mapping->data();
    // About 5 GB/s a thread: the matrices shared out between a few threads, each taking the next.
    return mapping->editResident([&](uint8_t* copy) {
        std::atomic<size_t> next{0};
        auto work = [&] {
            for (size_t i = next++; i < matrices.size(); i = next++) {
                WeightMatrix& m = *matrices[i];
                kernels::packQ4_KBlocks(reinterpret_cast<BlockQ4_K*>(copy + (m.data - base)),
                                        size_t(m.rows) * size_t(m.cols / 256));
                m.packed = true;
            }
        };
        std::vector<std::thread> helpers(std::min<size_t>(3, std::thread::hardware_concurrency() - 1));
        for (auto& t : helpers)
            t = std::thread(work);
        work();
        for (auto& t : helpers)
            t.join();
    });
}

void dequantizeMatrixRow(const WeightMatrix& w, int r, float* out)
{
    if (w.packed)
        kernels::dequantizeRowQ4_KPacked(reinterpret_cast<const BlockQ4_K*>(w.row(r)), out, w.cols);
    else
        kernels::dequantizeRow(w.type, w.row(r), out, w.cols);
}

Expected<TransformerWeights> TransformerWeights::fromGguf(const GgufFile& file, const TransformerConfig& c)
{
    TransformerWeights w;
    w.mapping = file.mapping();
    GgufWeightReader r(file);
    const GgufTensorInfo* emb = file.findTensor("token_embd.weight");
    if (!emb)
        return file.error(ErrorCode::Format, "tensor is missing", "token_embd.weight");
    if (emb->dims[1] > (1u << 24) || emb->dims[1] == 0)
        return file.error(ErrorCode::Format, "vocabulary size is out of range", "token_embd.weight");
    const int vocab = static_cast<int>(emb->dims[1]);
    if (c.vocabSize != vocab)
        return file.error(ErrorCode::Format, "vocabulary size does not match the embedding", "token_embd.weight");
    if (auto e = r.matrix("token_embd.weight", vocab, c.dim, w.tokenEmbedding))
        return *e;
    w.tokenEmbedding.interleaved = false; // read row by row (and as the tied output) from the plain layout
    if (auto e = r.vector("output_norm.weight", c.dim, w.outputNorm))
        return *e;
    if (auto e = r.matrix("output.weight", vocab, c.dim, w.output, true))
        return *e;
    w.tiedOutput = w.output.data == nullptr;
    if (w.tiedOutput)
        w.output = w.tokenEmbedding;
    if (auto e = r.vector("rope_freqs.weight", c.ropeDims / 2, w.ropeFreqFactors, true))
        return *e;
    w.layers.resize(static_cast<size_t>(c.layerCount));
    for (int i = 0; i < c.layerCount; ++i) {
        LayerWeights& l = w.layers[static_cast<size_t>(i)];
        const std::string p = "blk." + std::to_string(i) + ".";
        if (auto e = r.vector(p + "attn_norm.weight", c.dim, l.attnNorm))
            return *e;
        if (auto e = r.matrix(p + "attn_q.weight", c.qDim(), c.dim, l.wq))
            return *e;
        if (auto e = r.matrix(p + "attn_k.weight", c.kvDim(), c.dim, l.wk))
            return *e;
        if (auto e = r.matrix(p + "attn_v.weight", c.kvDim(), c.dim, l.wv))
            return *e;
        if (auto e = r.matrix(p + "attn_output.weight", c.dim, c.qDim(), l.wo))
            return *e;
        if (c.qkvBias) {
            if (auto e = r.vector(p + "attn_q.bias", c.qDim(), l.bq))
                return *e;
            if (auto e = r.vector(p + "attn_k.bias", c.kvDim(), l.bk))
                return *e;
            if (auto e = r.vector(p + "attn_v.bias", c.kvDim(), l.bv))
                return *e;
        }
        if (c.qkNorm) {
            if (auto e = r.vector(p + "attn_q_norm.weight", c.headDim, l.qNorm))
                return *e;
            if (auto e = r.vector(p + "attn_k_norm.weight", c.headDim, l.kNorm))
                return *e;
        }
        if (c.postNorms) {
            if (auto e = r.vector(p + "post_attention_norm.weight", c.dim, l.attnPostNorm))
                return *e;
            if (auto e = r.vector(p + "post_ffw_norm.weight", c.dim, l.ffnPostNorm))
                return *e;
        }
        if (c.outputBias)
            if (auto e = r.vector(p + "attn_output.bias", c.dim, l.bo))
                return *e;
        if (c.attentionSinks)
            if (auto e = r.vector(p + "attn_sinks.weight", c.headCount, l.sinks))
                return *e;
        if (auto e = r.vector(p + c.ffnNormTensor + ".weight", c.dim, l.ffnNorm))
            return *e;
        if (c.isMoe()) {
            w.usedExperts = c.expertUsedCount;
            if (auto e = r.matrix(p + "ffn_gate_inp.weight", c.expertCount, c.dim, l.router))
                return *e;
            if (auto e = r.experts(p + "ffn_gate_exps.weight", c.expertCount, c.hiddenDim, c.dim, l.expertGate))
                return *e;
            if (auto e = r.experts(p + "ffn_up_exps.weight", c.expertCount, c.hiddenDim, c.dim, l.expertUp))
                return *e;
            if (auto e = r.experts(p + "ffn_down_exps.weight", c.expertCount, c.dim, c.hiddenDim, l.expertDown))
                return *e;
            if (c.moeBiases) {
                if (auto e = r.vector(p + "ffn_gate_inp.bias", c.expertCount, l.routerBias))
                    return *e;
                struct StackedBias
                {
                    const char* name;
                    int width;
                    const float** out;
                };
                const StackedBias biases[] = {{"ffn_gate_exps.bias", c.hiddenDim, &l.expertGateBias},
                                              {"ffn_up_exps.bias", c.hiddenDim, &l.expertUpBias},
                                              {"ffn_down_exps.bias", c.dim, &l.expertDownBias}};
                for (const StackedBias& b : biases)
                    if (auto e = r.vectors(p + b.name, b.width, c.expertCount, *b.out))
                        return *e;
            }
            continue;
        }
        if (auto e = r.matrix(p + "ffn_gate.weight", c.hiddenDim, c.dim, l.gate))
            return *e;
        if (auto e = r.matrix(p + "ffn_up.weight", c.hiddenDim, c.dim, l.up))
            return *e;
        if (auto e = r.matrix(p + "ffn_down.weight", c.dim, c.hiddenDim, l.down))
            return *e;
    }
    return w;
}

Expected<TransformerWeights> TransformerWeights::fromLlama2c(const Llama2cCheckpoint& ck, const TransformerConfig& c)
{
    TransformerWeights w;
    w.mapping = ck.mapping();
    const size_t dim = size_t(c.dim), q = size_t(c.qDim()), kv = size_t(c.kvDim()), hidden = size_t(c.hiddenDim);
    w.tokenEmbedding = f32Matrix(ck.tensor(Llama2cTensor::TokenEmbedding), c.vocabSize, c.dim);
    w.output = f32Matrix(ck.tensor(Llama2cTensor::Classifier), c.vocabSize, c.dim);
    w.tiedOutput = ck.header().sharedClassifier;
    w.outputNorm = ck.tensor(Llama2cTensor::RmsFinal);
    w.layers.resize(static_cast<size_t>(c.layerCount));
    for (size_t i = 0; i < w.layers.size(); ++i) {
        LayerWeights& l = w.layers[i];
        l.attnNorm = ck.tensor(Llama2cTensor::RmsAttention) + i * dim;
        l.ffnNorm = ck.tensor(Llama2cTensor::RmsFfn) + i * dim;
        l.wq = f32Matrix(ck.tensor(Llama2cTensor::Wq) + i * q * dim, c.qDim(), c.dim);
        l.wk = f32Matrix(ck.tensor(Llama2cTensor::Wk) + i * kv * dim, c.kvDim(), c.dim);
        l.wv = f32Matrix(ck.tensor(Llama2cTensor::Wv) + i * kv * dim, c.kvDim(), c.dim);
        l.wo = f32Matrix(ck.tensor(Llama2cTensor::Wo) + i * dim * q, c.dim, c.qDim());
        l.gate = f32Matrix(ck.tensor(Llama2cTensor::W1) + i * hidden * dim, c.hiddenDim, c.dim);
        l.down = f32Matrix(ck.tensor(Llama2cTensor::W2) + i * dim * hidden, c.dim, c.hiddenDim);
        l.up = f32Matrix(ck.tensor(Llama2cTensor::W3) + i * hidden * dim, c.hiddenDim, c.dim);
    }
    return w;
}

} // namespace ws
