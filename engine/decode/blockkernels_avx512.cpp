// The K-quant block kernels of prompt processing (blocktiles.h) built for AVX-512 VL/BW/VNNI, chosen at run time by
// their dispatchers in the type families' files where the processor has these (kernels.h).
#include "engine/decode/blocktiles.h"

namespace ws::kernels::avx512 {

void dotQ5_KBlock(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride, int tokens,
                  int blocks, float* out, size_t outStride)
{
    q5Block(rows, rowBytes, rowCount, x, xStride, tokens, blocks, out, outStride);
}

void dotQ6_KBlock(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride, int tokens,
                  int blocks, float* out, size_t outStride)
{
    q6Block(rows, rowBytes, rowCount, x, xStride, tokens, blocks, out, outStride);
}

void dotQ4_KPackedBlock(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride,
                        int tokens, int blocks, float* out, size_t outStride)
{
    q4PackedBlock(rows, rowBytes, rowCount, x, xStride, tokens, blocks, out, outStride);
}

} // namespace ws::kernels::avx512
