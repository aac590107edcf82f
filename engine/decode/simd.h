#pragma once
// Engine-internal AVX2/FMA/F16C helpers, for translation units of the engine
// (built with -march=x86-64-v3); never include from code built without it.

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <immintrin.h>

namespace ws::simd {

inline float f16(uint16_t h)
{
    return _cvtsh_ss(h);
}
inline uint16_t toF16(float f)
{
    return static_cast<uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}

// Sum of the 8 lanes in ggml's order: ((l0+l4)+(l2+l6))+((l1+l5)+(l3+l7)).
inline float hsum8(__m256 v)
{
    __m128 r = _mm_add_ps(_mm256_extractf128_ps(v, 1), _mm256_castps256_ps128(v));
    r = _mm_add_ps(r, _mm_movehl_ps(r, r));
    r = _mm_add_ss(r, _mm_movehdup_ps(r));
    return _mm_cvtss_f32(r);
}

// ggml_vec_dot_f32/f16's reduction of its four 8-lane accumulators (GGML_F32x8_REDUCE): pairwise, then within the
// vector with two horizontal adds.
inline float reduce4(__m256 s0, __m256 s1, __m256 s2, __m256 s3)
{
    s0 = _mm256_add_ps(s0, s2);
    s1 = _mm256_add_ps(s1, s3);
    s0 = _mm256_add_ps(s0, s1);
    const __m128 t0 = _mm_add_ps(_mm256_castps256_ps128(s0), _mm256_extractf128_ps(s0, 1));
    const __m128 t1 = _mm_hadd_ps(t0, t0);
    return _mm_cvtss_f32(_mm_hadd_ps(t1, t1));
}

// The exp approximation of ggml (after ARM's optimized-routines expf): a
// degree-5 polynomial on the reduced argument, with special handling for
// large |x| (overflow to inf, underflow to 0).
inline __m256 exp8(__m256 x)
{
    const __m256 shift = _mm256_set1_ps(0x1.8p23f);
    const __m256 z = _mm256_fmadd_ps(x, _mm256_set1_ps(0x1.715476p+0f), shift);
    const __m256 n = _mm256_sub_ps(z, shift);
    const __m256 b =
        _mm256_fnmadd_ps(n, _mm256_set1_ps(0x1.7f7d1cp-20f), _mm256_fnmadd_ps(n, _mm256_set1_ps(0x1.62e4p-1f), x));
    const __m256i e = _mm256_slli_epi32(_mm256_castps_si256(z), 23);
    const __m256 k = _mm256_castsi256_ps(_mm256_add_epi32(e, _mm256_castps_si256(_mm256_set1_ps(1))));
    const __m256 absN = _mm256_andnot_ps(_mm256_set1_ps(-0.f), n);
    const __m256i c = _mm256_castps_si256(_mm256_cmp_ps(absN, _mm256_set1_ps(126), _CMP_GT_OQ));
    const __m256 u = _mm256_mul_ps(b, b);
    const __m256 p45 = _mm256_fmadd_ps(_mm256_set1_ps(0x1.0e4020p-7f), b, _mm256_set1_ps(0x1.573e2ep-5f));
    const __m256 p23 = _mm256_fmadd_ps(_mm256_set1_ps(0x1.555e66p-3f), b, _mm256_set1_ps(0x1.fffdb6p-2f));
    const __m256 j = _mm256_fmadd_ps(_mm256_fmadd_ps(p45, u, p23), u, _mm256_mul_ps(_mm256_set1_ps(0x1.ffffecp-1f), b));
    if (!_mm256_movemask_ps(_mm256_castsi256_ps(c)))
        return _mm256_fmadd_ps(j, k, k);
    const __m256i g = _mm256_and_si256(_mm256_castps_si256(_mm256_cmp_ps(n, _mm256_setzero_ps(), _CMP_LE_OQ)),
                                       _mm256_set1_epi32(static_cast<int>(0x82000000u)));
    const __m256 s1 = _mm256_castsi256_ps(_mm256_add_epi32(g, _mm256_set1_epi32(0x7f000000)));
    const __m256 s2 = _mm256_castsi256_ps(_mm256_sub_epi32(e, g));
    const __m256i dd = _mm256_castps_si256(_mm256_cmp_ps(absN, _mm256_set1_ps(192), _CMP_GT_OQ));
    const __m256 dMask = _mm256_castsi256_ps(dd);
    const __m256 cMask = _mm256_castsi256_ps(c);
    const __m256 scaled = _mm256_mul_ps(_mm256_fmadd_ps(s2, j, s2), s1);
    const __m256 normal = _mm256_fmadd_ps(k, j, k);
    const __m256 inner = _mm256_or_ps(_mm256_and_ps(cMask, scaled), _mm256_andnot_ps(cMask, normal));
    return _mm256_or_ps(_mm256_and_ps(dMask, _mm256_mul_ps(s1, s1)), _mm256_andnot_ps(dMask, inner));
}

// 16 int16 sums of adjacent byte products of the signed x and y (|x| <= 127), as ggml's mul_add_epi8.
inline __m256i mulAddI8(__m256i x, __m256i y)
{
    return _mm256_maddubs_epi16(_mm256_sign_epi8(x, x), _mm256_sign_epi8(y, x));
}

// Exact sum of the 8 int32 lanes.
inline int hsumI32(__m256i v)
{
    __m128i r = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    r = _mm_add_epi32(r, _mm_unpackhi_epi64(r, r));
    r = _mm_add_epi32(r, _mm_shuffle_epi32(r, 1));
    return _mm_cvtsi128_si32(r);
}

// 32 bytes: the low nibbles of 16 bytes, then their high nibbles (ggml's bytes_from_nibbles_32).
inline __m256i nibbles32(const uint8_t* qs)
{
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
    const __m256i both = _mm256_insertf128_si256(_mm256_castsi128_si256(x), _mm_srli_epi16(x, 4), 1);
    return _mm256_and_si256(both, _mm256_set1_epi8(15));
}

// A 16-bit multiplier vector: lo for the first 16 bytes' products, hi for the last 16.
inline __m256i halves16(int lo, int hi)
{
    return _mm256_set_m128i(_mm_set1_epi16(static_cast<short>(hi)), _mm_set1_epi16(static_cast<short>(lo)));
}

// 32 bytes loaded once into a register. For a value used by two instructions gcc otherwise folds the load into
// both and reads memory twice; the K-quant kernels are bound by the core's load slots at one thread.
inline __m256i loadOnce(const void* p)
{
    __m256i v = _mm256_loadu_si256(static_cast<const __m256i*>(p));
    asm("" : "+x"(v)); // an empty statement the optimiser cannot see through: v is a register from here on
    return v;
}

// Weights are streamed from memory once per token. prefetchAhead asks for each line kPrefetchBytes before its
// use, into L1; a page ahead also carries a mapped file's 4 KiB pages past the boundaries where the hardware
// prefetcher stops. No effect on results.
constexpr int kPrefetchBytes = 4096;
inline void prefetchAhead(const void* p, int lines)
{
    for (int i = 0; i < lines; ++i)
        _mm_prefetch(static_cast<const char*>(p) + kPrefetchBytes + 64 * i, _MM_HINT_T0);
}

// For the kernels with the most arithmetic per byte (Q4_K, Q5_K, Q6_K): each line asked for into L2 three
// times kPrefetchBytes ahead, then into L1 half kPrefetchBytes ahead. One thread that busy otherwise keeps too
// few reads in flight to stream at the memory's rate (L1 has fewer miss buffers than L2): at 512 MB the Q5_K and
// Q6_K kernels stream 28.1-28.6 GB/s so, 26.9-27.9 with the L1 request a page ahead, 17-26 with prefetchAhead
// alone, on this machine (Zen 4, one thread). The lighter Q8_0 kernel keeps its reads in flight itself and gains
// nothing (slightly slower in alternated runs), so it uses prefetchAhead.
inline void streamAhead(const void* p, int lines)
{
    for (int i = 0; i < lines; ++i) {
        _mm_prefetch(static_cast<const char*>(p) + 3 * kPrefetchBytes + 64 * i, _MM_HINT_T1);
        _mm_prefetch(static_cast<const char*>(p) + kPrefetchBytes / 2 + 64 * i, _MM_HINT_T0);
    }
}

// Panels of tokens whose activations (bytesPerToken each) stay in L2 (about `budget` bytes) while every tile of
// rows passes over them: the weights are read from memory once per panel. A multiple of four tokens, 4 to 512;
// every block kernel of prompt processing walks its tokens so.
inline int tokenPanel(size_t budget, size_t bytesPerToken)
{
    return std::clamp(int(budget / std::max<size_t>(bytesPerToken, 1)) / 4 * 4, 4, 512);
}

// Prefetches every cache line of [p, p + bytes).
inline void prefetchRange(const uint8_t* p, size_t bytes)
{
    const uintptr_t first = reinterpret_cast<uintptr_t>(p) & ~uintptr_t(63);
    for (uintptr_t a = first; a < reinterpret_cast<uintptr_t>(p) + bytes; a += 64)
        _mm_prefetch(reinterpret_cast<const char*>(a), _MM_HINT_T0);
}

} // namespace ws::simd
