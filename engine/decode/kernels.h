#pragma once
// The arithmetic kernels of the decode engine, written to give the same
// floating-point results as llama.cpp's x86 CPU backend (AVX2/FMA/F16C build):
// - dot products keep ggml's summation order: a single 8-lane FMA accumulator
//   per output reduced as ((l0+l4)+(l2+l6))+((l1+l5)+(l3+l7)) ("lanes", the
//   tinyBLAS order llama.cpp uses when the length is a multiple of 8), or four
//   such accumulators over steps of 32 with a pairwise reduction ("ggml" order,
//   ggml_vec_dot_f32/f16, used for other lengths);
// - quantised rows are multiplied with the activation quantised to Q8_0 (or
//   Q8_K for K-quants): integer products summed in groups of four per lane,
//   then scaled by the product of the two F16 block scales;
// - exp and SiLU use the same polynomial exp approximation as ggml (not libm),
//   so softmax and SwiGLU agree to the last bit.
// All functions are pure and thread-safe. One source file per weight-type
// family: floatkernels.cpp (F32, F16, BF16), legacyquantkernels.cpp (Q8_0,
// Q4_0, Q4_1, Q5_0, Q5_1, Q8_1), kquantkernels.cpp (Q4_K, Q5_K, Q8_K), q6kkernels.cpp (Q6_K),
// lowbitkquantkernels.cpp (Q2_K, Q3_K), lutquantkernels.cpp (IQ4_NL, IQ4_XS,
// MXFP4); kernels.cpp the element-wise kernels; the block kernels of prompt
// processing (rows by tokens) in blocktiles.h, built twice (blockkernels_avx512.cpp and blockkernels_avx2.cpp, each
// with its Q8_0 tiles) into IsaKernels below; cputypetraits.h is the table that picks a type's kernels.
// `interleaved`: the row is one that llama.cpp's CPU backend repacks into its
// 8-row interleaved layout (Q4_K, IQ4_NL, MXFP4 matrices with a multiple of 8
// rows), whose kernel sums each block to one integer and accumulates per row.

#include "engine/decode/quantblocks.h"
#include "engine/gguf/ggmltype.h"

#include <cstddef>
#include <cstdint>

namespace ws::kernels {

// Activation conversion (one row of n values; n a multiple of the block size).
void quantizeRowQ8_0(const float* x, BlockQ8_0* y, int n);
void quantizeRowQ8_K(const float* x, BlockQ8_K* y, int n);
void quantizeRowQ8_1(const float* x, BlockQ8_1* y, int n);
void convertRowF16(const float* x, uint16_t* y, int n);
void convertRowBf16(const float* x, uint16_t* y, int n);

// Dot products. F32/F16: `lanes` needs n % 8 == 0.
float dotF32Lanes(const float* a, const float* b, int n);
float dotF32Ggml(const float* a, const float* b, int n);
float dotF16Lanes(const uint16_t* a, const uint16_t* b, int n);
float dotF16Ggml(const uint16_t* a, const uint16_t* b, int n);
float dotBf16(const uint16_t* a, const uint16_t* b, int n);
// rowCount rows (rowBytes apart) by `tokens` activation rows of n values (n a multiple of 8; x: (tokens, n)):
// out[t * outStride + r] equals dotF32Lanes / dotF16Lanes of row r and token t bit for bit.
void dotF32Block(const uint8_t* rows, size_t rowBytes, int rowCount, const float* x, int tokens, int n, float* out,
                 size_t outStride);
void dotF16Block(const uint8_t* rows, size_t rowBytes, int rowCount, const uint16_t* x, int tokens, int n, float* out,
                 size_t outStride);
float dotQ8_0(const BlockQ8_0* w, const BlockQ8_0* x, int blocks);
// rowCount consecutive rows (rowBytes apart) of a Q8_0 matrix, each equal to dotQ8_0 bit for bit.
void dotQ8_0Rows(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_0* x, int blocks, float* out);
float dotQ4_0(const BlockQ4_0* w, const BlockQ8_0* x, int blocks);
float dotQ4_1(const BlockQ4_1* w, const BlockQ8_1* x, int blocks);
float dotQ5_0(const BlockQ5_0* w, const BlockQ8_0* x, int blocks);
float dotQ5_1(const BlockQ5_1* w, const BlockQ8_1* x, int blocks);
float dotQ2_K(const BlockQ2_K* w, const BlockQ8_K* x, int blocks);
float dotQ3_K(const BlockQ3_K* w, const BlockQ8_K* x, int blocks);
float dotQ4_K(const BlockQ4_K* w, const BlockQ8_K* x, int blocks, bool interleaved = false);
// The packed Q4_K layout of an interleaved matrix (the decode's resident weights, TransformerWeights::
// packForKernels): each block's 128 bytes of values rearranged so that lane k (bytes 4k..4k+3) of every 32-byte
// vector holds sub-block k; its scales, minimums and F16 factors stay where they are. The activation is
// permuted alike once per product (permuteQ8_KForPackedQ4_K; its scale and block sums unchanged), so a block's
// exact integer sum takes no shuffle. IsaKernels::q4_KPackedRows (blocks <= 64) equals q4_KInterleaved8 on the
// unpacked rows bit for bit (the interleaved kernel's floats see only that sum per block and row).
void packQ4_KBlocks(BlockQ4_K* blocks, size_t count);
void unpackQ4_KBlock(const BlockQ4_K& packed, BlockQ4_K& plain);
void permuteQ8_KForPackedQ4_K(BlockQ8_K* x, int blocks);
constexpr int kPackedQ4_KMaxBlocks = 64;
float dotQ5_K(const BlockQ5_K* w, const BlockQ8_K* x, int blocks);
float dotQ6_K(const BlockQ6_K* w, const BlockQ8_K* x, int blocks);
float dotIq4Nl(const BlockIq4Nl* w, const BlockQ8_0* x, int blocks, bool interleaved = false);
float dotMxfp4(const BlockMxfp4* w, const BlockQ8_0* x, int blocks, bool interleaved = false);
float dotIq4Xs(const BlockIq4Xs* w, const BlockQ8_K* x, int blocks);

// The kernels built once per instruction set from one source (kquantlanes.h, q6klanes.h and blocktiles.h,
// included by blockkernels_avx2.cpp and blockkernels_avx512.cpp, which tile Q8_0's tokens each its own way), the
// same bits in both: x86-64-v3 (AVX2), and AVX-512 VL/BW/VNNI, which fuses each
// multiply-add with its sum and merges the high bits in one step. isa() is the build this processor runs.
//
// Rows kernels: rowCount consecutive rows (rowBytes apart), out[r] equal to the type's one-row dot product of row
// r bit for bit; the activation's part of the sums is prepared once for all rows.
using KRowsKernel = void(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_K* x, int blocks,
                         float* out);
// Block kernels of prompt processing: rowCount rows by `tokens` activation rows (xStride bytes apart),
// out[t * outStride + r] equal to the one-row dot product of row r and token t bit for bit.
using BlockKernel = void(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride,
                         int tokens, int blocks, float* out, size_t outStride);
// F32 and F16 weights (floattiles.h): rowCount rows by `tokens` activation rows of n values (x: (tokens, n), F32
// for F32 weights, F16 for F16), out[t * outStride + r] equal to dotF32Lanes / dotF16Lanes bit for bit.
template <typename X>
using FloatBlockKernel = void(const uint8_t* rows, size_t rowBytes, int rowCount, const X* x, int tokens, int n,
                              float* out, size_t outStride);
struct IsaKernels
{
    // Eight consecutive rows of an interleaved Q4_K matrix: out[r] equals dotQ4_K(row r, x, blocks, true); the
    // activation and block scales are read once per block.
    void (*q4_KInterleaved8)(const uint8_t* rows, size_t rowBytes, const BlockQ8_K* x, int blocks, float* out);
    KRowsKernel* q4_KPackedRows; // packed rows (blocks <= kPackedQ4_KMaxBlocks), x permuted: as q4_KInterleaved8
    KRowsKernel* q5_KRows;
    KRowsKernel* q6_KRows;
    // Q8_0: the AVX-512 build multiplies tiles of four rows by four tokens with the scales made ahead as floats
    // (pairs of tokens in 512-bit registers for what is left); the AVX2 build tiles of three rows by three tokens,
    // its scales made ahead the same way (q8tiles.h, q8_0ScaledPanels).
    BlockKernel* q8_0Block;
    BlockKernel* q4_KPackedBlock; // packed rows by permuted Q8_K rows; each block unpacked once for four tokens
    BlockKernel* q5_KBlock;       // each block's values formed once for four tokens
    BlockKernel* q6_KBlock;
    // F32, F16: the AVX2 build tiles of three rows by four tokens (12 accumulators in its 16 registers), the
    // AVX-512 build six by four in its 32 (each activation vector shared by twice the rows).
    FloatBlockKernel<float>* f32Block;
    FloatBlockKernel<uint16_t>* f16Block;
};
namespace avx2 {
extern const IsaKernels kKernels;
} // namespace avx2
namespace avx512 {
bool available(); // AVX-512 F, BW, VL and VNNI
extern const IsaKernels kKernels;
} // namespace avx512
// The build this processor runs: AVX-512's where avx512::available(), AVX2's otherwise.
const IsaKernels& isa();

// Decodes n values of a row stored as `type` (as ggml's dequantize_row_*).
void dequantizeRow(GgmlType type, const uint8_t* src, float* dst, int n);
void dequantizeRowF16(const uint16_t* x, float* y, int n);
void dequantizeRowBf16(const uint16_t* x, float* y, int n);
void dequantizeRowQ8_0(const BlockQ8_0* x, float* y, int n);
void dequantizeRowQ4_0(const BlockQ4_0* x, float* y, int n);
void dequantizeRowQ4_1(const BlockQ4_1* x, float* y, int n);
void dequantizeRowQ5_0(const BlockQ5_0* x, float* y, int n);
void dequantizeRowQ5_1(const BlockQ5_1* x, float* y, int n);
void dequantizeRowQ2_K(const BlockQ2_K* x, float* y, int n);
void dequantizeRowQ3_K(const BlockQ3_K* x, float* y, int n);
void dequantizeRowQ4_K(const BlockQ4_K* x, float* y, int n);
void dequantizeRowQ4_KPacked(const BlockQ4_K* x, float* y, int n);
void dequantizeRowQ5_K(const BlockQ5_K* x, float* y, int n);
void dequantizeRowQ6_K(const BlockQ6_K* x, float* y, int n);
void dequantizeRowIq4Nl(const BlockIq4Nl* x, float* y, int n);
void dequantizeRowIq4Xs(const BlockIq4Xs* x, float* y, int n);
void dequantizeRowMxfp4(const BlockMxfp4* x, float* y, int n);

// y = exp(x) with ggml's vector approximation (ggml_v_expf), n a multiple of 8.
void expRow(const float* x, float* y, int n);
// In place: x[i] = x[i] / (1 + exp(-x[i])), ggml's vector SiLU (libm expf for the tail, as ggml).
void siluRow(float* x, int n);
// In place: gate[i] = GELU(gate[i]) * up[i], ggml's GeGLU: GELU's tanh form
// 0.5 x (1 + tanh(sqrt(2/pi) x (1 + 0.044715 x^2))) looked up in a table of every F16 input (x rounded to F16,
// the result rounded to F16), 0 for x <= -10 and x itself for x >= 10.
void gegluRow(float* gate, const float* up, int n);
// GELU (tanh form) of x as gegluRow applies it.
float gelu(float x);
// In place: x = x * (1 / sqrt(mean(x^2) + eps)), mean summed in double as ggml does; then x *= weight.
void rmsNormRow(const float* x, const float* weight, float* out, int n, float eps);

} // namespace ws::kernels
