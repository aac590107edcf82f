// The Q5_K and Q6_K rows kernels and the interleaved (plain and packed) Q4_K kernels built for AVX-512 VL/BW/VNNI
// (kquantlanes.h, q6klanes.h), chosen at run time by dotQ5_KRows, dotQ6_KRows and dotQ4_KInterleaved8.
#include "engine/decode/kquantlanes.h"
#include "engine/decode/q6klanes.h"

namespace ws::kernels::avx512 {

bool available()
{
    static const bool supported = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                                  __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
    return supported;
}

void dotQ5_KRows(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_K* x, int blocks, float* out)
{
    q5Rows(rows, rowBytes, rowCount, x, blocks, out);
}

void dotQ4_KInterleaved8(const uint8_t* rows, size_t rowBytes, const BlockQ8_K* x, int blocks, float* out)
{
    q4Interleaved8(rows, rowBytes, x, blocks, out);
}

void dotQ4_KPackedRows(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_K* xPacked, int blocks,
                       float* out)
{
    q4PackedRows(rows, rowBytes, rowCount, xPacked, blocks, out);
}

void dotQ6_KRows(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_K* x, int blocks, float* out)
{
    q6Rows(rows, rowBytes, rowCount, x, blocks, out);
}

} // namespace ws::kernels::avx512
