#include "engine/decode/cputypetraits.h"

#include "engine/decode/kernels.h"
#include "engine/decode/matmul.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace ws {

namespace {

template <typename T> const T* as(const uint8_t* p)
{
    return reinterpret_cast<const T*>(p);
}

// A block-quantised type's decoder and dot product, from the kernel for its block type and activation type.
template <typename Block, void (*Decode)(const Block*, float*, int)> void decode(const uint8_t* src, float* dst, int n)
{
    Decode(as<Block>(src), dst, n);
}
template <typename Block, typename Act, int kValues, float (*Dot)(const Block*, const Act*, int)>
float dotOf(const WeightMatrix& w, const uint8_t* row, const uint8_t* in, bool)
{
    return Dot(as<Block>(row), as<Act>(in), w.cols / kValues);
}
// The same for kernels that read llama.cpp's interleaved layout's order where the matrix has it.
template <typename Block, typename Act, int kValues, float (*Dot)(const Block*, const Act*, int, bool)>
float dotInterleaved(const WeightMatrix& w, const uint8_t* row, const uint8_t* in, bool)
{
    return Dot(as<Block>(row), as<Act>(in), w.cols / kValues, w.interleaved);
}
// Q8_0's rows kernel, and a K-quant's of the build this processor runs.
void rowsQ8_0(const WeightMatrix& w, int r0, int count, const uint8_t* in, float* out)
{
    kernels::dotQ8_0Rows(w.row(r0), w.rowBytes, count, as<BlockQ8_0>(in), w.cols / 32, out);
}
template <kernels::KRowsKernel* kernels::IsaKernels::*Rows>
void rowsK(const WeightMatrix& w, int r0, int count, const uint8_t* in, float* out)
{
    (kernels::isa().*Rows)(w.row(r0), w.rowBytes, count, as<BlockQ8_K>(in), w.cols / 256, out);
}

void decodeF32(const uint8_t* src, float* dst, int n)
{
    std::memcpy(dst, src, sizeof(float) * size_t(n));
}
void decodeF16(const uint8_t* src, float* dst, int n)
{
    kernels::dequantizeRowF16(as<uint16_t>(src), dst, n);
}
void decodeBf16(const uint8_t* src, float* dst, int n)
{
    kernels::dequantizeRowBf16(as<uint16_t>(src), dst, n);
}

float dotF32(const WeightMatrix& w, const uint8_t* row, const uint8_t* in, bool lanes)
{
    return lanes ? kernels::dotF32Lanes(as<float>(row), as<float>(in), w.cols)
                 : kernels::dotF32Ggml(as<float>(row), as<float>(in), w.cols);
}
float dotF16(const WeightMatrix& w, const uint8_t* row, const uint8_t* in, bool lanes)
{
    return lanes ? kernels::dotF16Lanes(as<uint16_t>(row), as<uint16_t>(in), w.cols)
                 : kernels::dotF16Ggml(as<uint16_t>(row), as<uint16_t>(in), w.cols);
}
// F32/F16 blocks: a product of two or more tokens takes the lanes order (matmul.h's usesLaneOrder); a matrix
// whose shape keeps it on ggml_vec_dot's order goes token by token.
void blockF32(const WeightMatrix& w, int r0, int count, const uint8_t* in, size_t inStride, int tokens, float* out,
              size_t outStride)
{
    if (!usesLaneOrder(w, tokens)) {
        for (int r = 0; r < count; ++r)
            for (int t = 0; t < tokens; ++t)
                out[outStride * size_t(t) + size_t(r)] = dotF32(w, w.row(r0 + r), in + inStride * size_t(t), false);
        return;
    }
    kernels::dotF32Block(w.row(r0), w.rowBytes, count, as<float>(in), tokens, w.cols, out, outStride);
}
void blockF16(const WeightMatrix& w, int r0, int count, const uint8_t* in, size_t inStride, int tokens, float* out,
              size_t outStride)
{
    if (!usesLaneOrder(w, tokens)) {
        for (int r = 0; r < count; ++r)
            for (int t = 0; t < tokens; ++t)
                out[outStride * size_t(t) + size_t(r)] = dotF16(w, w.row(r0 + r), in + inStride * size_t(t), false);
        return;
    }
    kernels::dotF16Block(w.row(r0), w.rowBytes, count, as<uint16_t>(in), tokens, w.cols, out, outStride);
}
float dotBf16(const WeightMatrix& w, const uint8_t* row, const uint8_t* in, bool)
{
    return kernels::dotBf16(as<uint16_t>(row), as<uint16_t>(in), w.cols);
}

// Q4_K: packed matrices any rows at once (groups of eight and a shorter last one); interleaved ones eight rows
// at a time, as llama.cpp's repacked layout is read (the same sums per row), the rest singly.
void rowsQ4_K(const WeightMatrix& w, int r0, int count, const uint8_t* in, float* out)
{
    const int blocks = w.cols / 256;
    if (w.packed) {
        kernels::isa().q4_KPackedRows(w.row(r0), w.rowBytes, count, as<BlockQ8_K>(in), blocks, out);
        return;
    }
    int i = 0;
    if (w.interleaved)
        for (; i + 8 <= count; i += 8)
            kernels::isa().q4_KInterleaved8(w.row(r0 + i), w.rowBytes, as<BlockQ8_K>(in), blocks, out + i);
    for (; i < count; ++i)
        out[i] = kernels::dotQ4_K(as<BlockQ4_K>(w.row(r0 + i)), as<BlockQ8_K>(in), blocks, w.interleaved);
}

void blockQ8_0(const WeightMatrix& w, int r0, int count, const uint8_t* in, size_t inStride, int tokens, float* out,
               size_t outStride)
{
    kernels::isa().q8_0Block(w.row(r0), w.rowBytes, count, in, inStride, tokens, w.cols / 32, out, outStride);
}

// Q4_K: the packed layout (the decode's resident matrices) by its block kernel, others token by token.
void blockQ4_K(const WeightMatrix& w, int r0, int count, const uint8_t* in, size_t inStride, int tokens, float* out,
               size_t outStride)
{
    if (w.packed)
        kernels::isa().q4_KPackedBlock(w.row(r0), w.rowBytes, count, in, inStride, tokens, w.cols / 256, out,
                                       outStride);
    else
        rowsTokenByToken(w, r0, count, in, inStride, tokens, false, out, outStride);
}

template <kernels::BlockKernel* kernels::IsaKernels::*Block>
void blockK(const WeightMatrix& w, int r0, int count, const uint8_t* in, size_t inStride, int tokens, float* out,
            size_t outStride)
{
    (kernels::isa().*Block)(w.row(r0), w.rowBytes, count, in, inStride, tokens, w.cols / 256, out, outStride);
}

using B = GgmlType;
using D = DotInput;

const CpuTypeTraits kTraits[] = {
    {B::F32, D::F32, decodeF32, dotF32, nullptr, blockF32},
    {B::F16, D::F16, decodeF16, dotF16, nullptr, blockF16},
    {B::BF16, D::Bf16, decodeBf16, dotBf16, nullptr, nullptr},
    {B::Q8_0, D::Q8_0, decode<BlockQ8_0, kernels::dequantizeRowQ8_0>, dotOf<BlockQ8_0, BlockQ8_0, 32, kernels::dotQ8_0>,
     rowsQ8_0, blockQ8_0},
    {B::Q4_0, D::Q8_0, decode<BlockQ4_0, kernels::dequantizeRowQ4_0>, dotOf<BlockQ4_0, BlockQ8_0, 32, kernels::dotQ4_0>,
     nullptr, nullptr},
    {B::Q4_1, D::Q8_1, decode<BlockQ4_1, kernels::dequantizeRowQ4_1>, dotOf<BlockQ4_1, BlockQ8_1, 32, kernels::dotQ4_1>,
     nullptr, nullptr},
    {B::Q5_0, D::Q8_0, decode<BlockQ5_0, kernels::dequantizeRowQ5_0>, dotOf<BlockQ5_0, BlockQ8_0, 32, kernels::dotQ5_0>,
     nullptr, nullptr},
    {B::Q5_1, D::Q8_1, decode<BlockQ5_1, kernels::dequantizeRowQ5_1>, dotOf<BlockQ5_1, BlockQ8_1, 32, kernels::dotQ5_1>,
     nullptr, nullptr},
    {B::Q2_K, D::Q8_K, decode<BlockQ2_K, kernels::dequantizeRowQ2_K>,
     dotOf<BlockQ2_K, BlockQ8_K, 256, kernels::dotQ2_K>, nullptr, nullptr},
    {B::Q3_K, D::Q8_K, decode<BlockQ3_K, kernels::dequantizeRowQ3_K>,
     dotOf<BlockQ3_K, BlockQ8_K, 256, kernels::dotQ3_K>, nullptr, nullptr},
    {B::Q4_K, D::Q8_K, decode<BlockQ4_K, kernels::dequantizeRowQ4_K>,
     dotInterleaved<BlockQ4_K, BlockQ8_K, 256, kernels::dotQ4_K>, rowsQ4_K, blockQ4_K},
    {B::Q5_K, D::Q8_K, decode<BlockQ5_K, kernels::dequantizeRowQ5_K>,
     dotOf<BlockQ5_K, BlockQ8_K, 256, kernels::dotQ5_K>, rowsK<&kernels::IsaKernels::q5_KRows>,
     blockK<&kernels::IsaKernels::q5_KBlock>},
    {B::Q6_K, D::Q8_K, decode<BlockQ6_K, kernels::dequantizeRowQ6_K>,
     dotOf<BlockQ6_K, BlockQ8_K, 256, kernels::dotQ6_K>, rowsK<&kernels::IsaKernels::q6_KRows>,
     blockK<&kernels::IsaKernels::q6_KBlock>},
    {B::IQ4_NL, D::Q8_0, decode<BlockIq4Nl, kernels::dequantizeRowIq4Nl>,
     dotInterleaved<BlockIq4Nl, BlockQ8_0, 32, kernels::dotIq4Nl>, nullptr, nullptr},
    {B::IQ4_XS, D::Q8_K, decode<BlockIq4Xs, kernels::dequantizeRowIq4Xs>,
     dotOf<BlockIq4Xs, BlockQ8_K, 256, kernels::dotIq4Xs>, nullptr, nullptr},
    {B::MXFP4, D::Q8_0, decode<BlockMxfp4, kernels::dequantizeRowMxfp4>,
     dotInterleaved<BlockMxfp4, BlockQ8_0, 32, kernels::dotMxfp4>, nullptr, nullptr},
};

constexpr size_t kTypeNumbers = 40; // GgmlType values are below this

const std::array<const CpuTypeTraits*, kTypeNumbers>& byNumber()
{
    static const auto table = [] {
        std::array<const CpuTypeTraits*, kTypeNumbers> t{};
        for (const CpuTypeTraits& e : kTraits)
            t[size_t(e.type)] = &e;
        return t;
    }();
    return table;
}

} // namespace

namespace kernels {
const IsaKernels& isa()
{
    static const IsaKernels& chosen = avx512::available() ? avx512::kKernels : avx2::kKernels;
    return chosen;
}
} // namespace kernels

const CpuTypeTraits& cpuTypeTraits(GgmlType type)
{
    // Every GgmlType has an entry (ggufWeightReader admits no other type number), so this never misses.
    return *byNumber()[size_t(type)];
}

void rowsTokenByToken(const WeightMatrix& w, int r0, int count, const uint8_t* in, size_t inStride, int tokens,
                      bool lanes, float* out, size_t outStride)
{
    const CpuTypeTraits& type = cpuTypeTraits(w.type);
    if (type.rows) {
        const int tile = tokens == 1 ? count : 16;
        for (int r = 0; r < count; r += tile)
            for (int t = 0; t < tokens; ++t)
                type.rows(w, r0 + r, std::min(tile, count - r), in + inStride * size_t(t),
                          out + outStride * size_t(t) + size_t(r));
        return;
    }
    for (int r = 0; r < count; ++r)
        for (int t = 0; t < tokens; ++t)
            out[outStride * size_t(t) + size_t(r)] = type.dot(w, w.row(r0 + r), in + inStride * size_t(t), lanes);
}

DotInput dotInputFor(const WeightMatrix& w)
{
    return w.packed ? DotInput::Q8_KPacked : cpuTypeTraits(w.type).dotInput;
}

} // namespace ws
