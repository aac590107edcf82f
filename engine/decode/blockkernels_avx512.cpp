// The kernels of blocktiles.h, kquantlanes.h and q6klanes.h (IsaKernels, kernels.h) built for AVX-512
// F/BW/VL/VNNI, which isa() chooses where the processor has these, and Q8_0's block kernel: tiles of 4 rows by 4
// tokens with the scales made ahead as floats, and tiles of token pairs in 512-bit registers for what is left. Each
// output is the one-row kernel's integers in its lanes, scaled and summed in its order: only the loads and the scales
// are shared within a tile.

// GCC 12 reports the deliberately undefined pass-through operand of its own 512-bit intrinsics
// (_mm512_undefined_ps in _mm512_cvtepi32_ps, _mm512_inserti64x4) as uninitialised once they are inlined.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#define WS_BLOCK_ISA avx512
// F32/F16: six rows by four tokens, 24 accumulators, six weights and an activation in the 32 registers (the same
// 8-lane FMAs as AVX2's tile, each activation vector loaded for twice the rows). F16, 3072 rows of 1024 and of 3072
// values by 512 tokens, one Zen 4 core: 3 x 4 gave 42-50 GMAC/s, 6 x 4 48-52, 4 x 6 46-50, 3 x 8 42-46, against
// 58.6 for a loop of FMAs alone.
#define WS_FLOAT_TILE_ROWS 6
#define WS_FLOAT_TILE_TOKENS 4
#include "engine/decode/blocktiles.h"

namespace ws::kernels::avx512 {

bool available()
{
    static const bool supported = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                                  __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
    return supported;
}

namespace {

// The same for kPairs pairs of tokens in 512-bit registers: token 2i in the low half, 2i + 1 in the high half,
// each half the lanes and steps of q8_0Tile's 256-bit register (blocktiles.h) for its token (the weights broadcast
// to both). Half the instructions per product, on cores with two 512-bit FMA units twice the products per cycle.
template <int kRows, int kPairs>
void q8_0PairTile(const uint8_t* rows, size_t rowBytes, const uint8_t* x, size_t xStride, int blocks, float* out,
                  size_t outStride)
{
    __m512 acc[kRows][kPairs]{}; // zeros
    const __m512i bias = _mm512_set1_epi8(static_cast<char>(0x80));
    for (int b = 0; b < blocks; ++b) {
        __m512i w[kRows], negBias[kRows];
        __m512 wd[kRows];
        for (int r = 0; r < kRows; ++r) {
            const auto* blk = reinterpret_cast<const BlockQ8_0*>(rows + rowBytes * size_t(r)) + b;
            const __m256i qs = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk->qs));
            w[r] = _mm512_inserti64x4(_mm512_zextsi256_si512(qs), qs, 1);
            negBias[r] =
                _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_dpbusd_epi32(_mm512_setzero_si512(), bias, w[r]));
            wd[r] = _mm512_set1_ps(simd::f16(blk->d));
        }
        for (int p = 0; p < kPairs; ++p) {
            const auto* x0 = reinterpret_cast<const BlockQ8_0*>(x + xStride * size_t(2 * p)) + b;
            const auto* x1 = reinterpret_cast<const BlockQ8_0*>(x + xStride * size_t(2 * p + 1)) + b;
            // (zero-extending casts, a blend and a store: GCC 12 warns of the undefined upper halves of the others)
            const __m512i both =
                _mm512_inserti64x4(_mm512_zextsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x0->qs))),
                                   _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x1->qs)), 1);
            const __m512i xu = _mm512_xor_si512(both, bias);
            const __m512 xd =
                _mm512_mask_blend_ps(0xFF00, _mm512_set1_ps(simd::f16(x0->d)), _mm512_set1_ps(simd::f16(x1->d)));
            for (int r = 0; r < kRows; ++r) {
                const __m512 lanes = _mm512_cvtepi32_ps(_mm512_dpbusd_epi32(negBias[r], xu, w[r]));
                acc[r][p] = _mm512_fmadd_ps(_mm512_mul_ps(wd[r], xd), lanes, acc[r][p]);
            }
        }
    }
    for (int p = 0; p < kPairs; ++p)
        for (int r = 0; r < kRows; ++r) {
            alignas(64) float halves[16];
            _mm512_store_ps(halves, acc[r][p]);
            const __m256 lo = _mm256_load_ps(halves), hi = _mm256_load_ps(halves + 8);
            out[outStride * size_t(2 * p) + size_t(r)] = simd::hsum8(lo);
            out[outStride * size_t(2 * p + 1) + size_t(r)] = simd::hsum8(hi);
        }
}

// Four rows by four tokens in 256-bit registers: dotQ8_0's integers in its lanes, scaled and summed in its order,
// with fewer instructions on the multiplier ports than the pair tile. The scales come as floats, made once per
// panel (the tokens', [block][token], tokenScales at this tile's first token) and per row tile (the rows',
// [block][row]); a block's sixteen products d_w * d_x come from one 512-bit multiply, made ahead for a run of
// blocks (no store in the loop that keeps the sums in registers), and reach the FMAs as broadcast loads. The
// weights are made unsigned (w + 128, for vpdpbusd) and each token's lanes start at -128 times its own 4-byte sums:
// sum((w + 128) x) - 128 sum(x) is sum(w x) exactly, with a correction per token rather than per row.
void q8_0Tile4x4(const uint8_t* rows, size_t rowBytes, const float* rowScales, const uint8_t* x, size_t xStride,
                 const float* tokenScales, size_t tokenScaleStride, int blocks, float* out, size_t outStride)
{
    constexpr int kRun = 64;
    // Sixteen named sums, not an array: GCC keeps an array of them in memory and stores each one every block.
    __m256 a00 = _mm256_setzero_ps(), a01 = a00, a02 = a00, a03 = a00, a10 = a00, a11 = a00, a12 = a00, a13 = a00,
           a20 = a00, a21 = a00, a22 = a00, a23 = a00, a30 = a00, a31 = a00, a32 = a00, a33 = a00; // [row][token]
    alignas(64) float scale[kRun][16]; // [block][token][row]
    const __m512i tokenOfLane = _mm512_set_epi32(3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0);
    const __m256i bias = _mm256_set1_epi8(static_cast<char>(0x80));
    for (int b0 = 0; b0 < blocks; b0 += kRun) {
        const int n = std::min(kRun, blocks - b0);
        for (int i = 0; i < n; ++i) {
            const size_t b = size_t(b0 + i);
            const __m512 wd = _mm512_broadcast_f32x4(_mm_loadu_ps(rowScales + 4 * b));
            const __m512 xd = _mm512_permutexvar_ps(
                tokenOfLane, _mm512_castps128_ps512(_mm_loadu_ps(tokenScales + tokenScaleStride * b)));
            _mm512_store_ps(scale[i], _mm512_mul_ps(wd, xd));
        }
        for (int i = 0; i < n; ++i) {
            const int b = b0 + i;
            auto weights = [&](int r) {
                const auto* blk = reinterpret_cast<const BlockQ8_0*>(rows + rowBytes * size_t(r)) + b;
                return _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk->qs)), bias);
            };
            const __m256i w0 = weights(0), w1 = weights(1), w2 = weights(2), w3 = weights(3);
            auto token = [&](int t, __m256& s0, __m256& s1, __m256& s2, __m256& s3) {
                const auto* xb = reinterpret_cast<const BlockQ8_0*>(x + xStride * size_t(t)) + b;
                const __m256i xs = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb->qs));
                const __m256i zero = _mm256_setzero_si256();
                const __m256i start = _mm256_sub_epi32(zero, _mm256_dpbusd_epi32(zero, bias, xs));
                const float* sc = scale[i] + 4 * t;
                s0 = _mm256_fmadd_ps(_mm256_broadcast_ss(sc), _mm256_cvtepi32_ps(_mm256_dpbusd_epi32(start, w0, xs)),
                                     s0);
                s1 = _mm256_fmadd_ps(_mm256_broadcast_ss(sc + 1),
                                     _mm256_cvtepi32_ps(_mm256_dpbusd_epi32(start, w1, xs)), s1);
                s2 = _mm256_fmadd_ps(_mm256_broadcast_ss(sc + 2),
                                     _mm256_cvtepi32_ps(_mm256_dpbusd_epi32(start, w2, xs)), s2);
                s3 = _mm256_fmadd_ps(_mm256_broadcast_ss(sc + 3),
                                     _mm256_cvtepi32_ps(_mm256_dpbusd_epi32(start, w3, xs)), s3);
            };
            token(0, a00, a10, a20, a30);
            token(1, a01, a11, a21, a31);
            token(2, a02, a12, a22, a32);
            token(3, a03, a13, a23, a33);
        }
    }
    const __m256 sums[4][4] = {{a00, a10, a20, a30}, {a01, a11, a21, a31}, {a02, a12, a22, a32}, {a03, a13, a23, a33}};
    for (int t = 0; t < 4; ++t)
        for (int r = 0; r < 4; ++r)
            out[outStride * size_t(t) + size_t(r)] = simd::hsum8(sums[t][r]);
}

template <int kRows>
void q8_0Tokens(const uint8_t* rows, size_t rowBytes, const uint8_t* x, size_t xStride, int tokens, int blocks,
                float* out, size_t outStride)
{
    // Four tokens as two pairs, then a pair and a single for what is left.
    int t = 0;
    for (; t + 4 <= tokens; t += 4)
        q8_0PairTile<kRows, 2>(rows, rowBytes, x + xStride * size_t(t), xStride, blocks, out + outStride * size_t(t),
                               outStride);
    if (t + 2 <= tokens) {
        q8_0PairTile<kRows, 1>(rows, rowBytes, x + xStride * size_t(t), xStride, blocks, out + outStride * size_t(t),
                               outStride);
        t += 2;
    }
    if (t < tokens)
        q8_0Tile<kRows, 1>(rows, rowBytes, x + xStride * size_t(t), xStride, blocks, out + outStride * size_t(t),
                           outStride);
}

} // namespace

void dotQ8_0Block(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride, int tokens,
                  int blocks, float* out, size_t outStride)
{
    static constexpr Q8RowTile kRowTiles[4] = {q8_0Tokens<1>, q8_0Tokens<2>, q8_0Tokens<3>, q8_0Tokens<4>};
    if (rowCount < 4 || tokens < 4)
        return q8_0Panels(kRowTiles, rows, rowBytes, rowCount, x, xStride, tokens, blocks, out, outStride);
    q8_0ScaledPanels<4, 4>(q8_0Tile4x4, kRowTiles, rows, rowBytes, rowCount, x, xStride, tokens, blocks, out,
                           outStride);
}

} // namespace ws::kernels::avx512
