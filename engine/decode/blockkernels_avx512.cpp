// The K-quant block kernels of prompt processing (blocktiles.h) built for AVX-512 VL/BW/VNNI, chosen at run time by
// their dispatchers in the type families' files where the processor has these (kernels.h).
#define WS_BLOCK_ISA avx512
#include "engine/decode/blocktiles.h"
