// The kernels of blocktiles.h, kquantlanes.h and q6klanes.h (IsaKernels, kernels.h) built for AVX-512
// VL/BW/VNNI, which isa() chooses where the processor has these.
#define WS_BLOCK_ISA avx512
#include "engine/decode/blocktiles.h"

namespace ws::kernels::avx512 {

bool available()
{
    static const bool supported = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                                  __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
    return supported;
}

} // namespace ws::kernels::avx512
