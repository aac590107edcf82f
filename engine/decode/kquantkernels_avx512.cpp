// The Q5_K rows kernel built for AVX-512 VL/BW/VNNI (kquantlanes.h), chosen at run time by dotQ5_KRows.
#include "engine/decode/kquantlanes.h"

namespace ws::kernels::avx512 {

bool available()
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
}

void dotQ5_KRows(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_K* x, int blocks, float* out)
{
    q5Rows(rows, rowBytes, rowCount, x, blocks, out);
}

} // namespace ws::kernels::avx512
