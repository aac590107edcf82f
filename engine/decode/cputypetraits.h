#pragma once
// One table of what the CPU does with each weight type, as ggml-cpu's type_traits_cpu: how a row decodes to
// floats, which type the activation is converted to for the dot product (ggml's vec_dot_type: Q8_0 for
// Q8_0/Q4_0/Q5_0/IQ4_NL/MXFP4, Q8_1 for Q4_1/Q5_1, Q8_K for K-quants and IQ4_XS, F16 for F16, BF16 for BF16,
// F32 unchanged), the one-row dot product, a kernel for many rows with one token where the type has one, and a
// kernel for a block of rows by a block of tokens (prompt processing) where the type has one. Every
// operation on a weight type goes through this table; adding a type is one entry here (and its storage in
// engine/gguf/ggmltype.cpp), not a case in every switch.
//
// Each entry's kernels give the same bits as its dot product on every row: the rows and block kernels only
// share work between rows and tokens (the activation's scales, the weight's decoded values), never change a
// row's summation order.

#include "engine/decode/weights.h"
#include "engine/gguf/ggmltype.h"

#include <cstddef>
#include <cstdint>

namespace ws {

// The activation's form for a dot product. Q8_KPacked: Q8_K permuted for packed Q4_K matrices
// (kernels::permuteQ8_KForPackedQ4_K), chosen by WeightMatrix::packed rather than by the type.
enum class DotInput
{
    F32,
    F16,
    Bf16,
    Q8_0,
    Q8_1,
    Q8_K,
    Q8_KPacked
};

struct CpuTypeTraits
{
    GgmlType type;
    DotInput dotInput;
    // n values of a row (n a multiple of the block size), as ggml's dequantize_row_*.
    void (*dequantize)(const uint8_t* src, float* dst, int n);
    // Row `row` of w with one converted activation row; `lanes`: tinyBLAS's order (F32/F16, matmul.h).
    float (*dot)(const WeightMatrix& w, const uint8_t* row, const uint8_t* in, bool lanes);
    // Rows [r0, r0 + count) of w with one activation row, out[i] for row r0 + i; null: dot row by row.
    void (*rows)(const WeightMatrix& w, int r0, int count, const uint8_t* in, float* out);
    // Rows [r0, r0 + count) by `tokens` activation rows (inStride bytes apart): out[t * outStride + i] for
    // token t and row r0 + i, each equal to what rows/dot give that token (the lanes order for F32/F16, as a
    // product of two or more tokens uses). Null: rows or dot token by token over tiles of rows.
    void (*block)(const WeightMatrix& w, int r0, int count, const uint8_t* in, size_t inStride, int tokens, float* out,
                  size_t outStride);
};

// The entry of a type the engine computes with (every GgmlType).
const CpuTypeTraits& cpuTypeTraits(GgmlType type);

// Rows [r0, r0 + count) by `tokens` as `block` computes them, through the type's rows kernel (or dot) token by
// token over tiles of 16 rows that stay in the cache while every token reads them: for types without a block
// kernel, and the layouts a block kernel does not take.
void rowsTokenByToken(const WeightMatrix& w, int r0, int count, const uint8_t* in, size_t inStride, int tokens,
                      bool lanes, float* out, size_t outStride);

// The activation form a product with w takes (the type's, or Q8_KPacked for packed Q4_K).
DotInput dotInputFor(const WeightMatrix& w);

} // namespace ws
