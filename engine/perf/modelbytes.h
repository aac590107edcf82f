#pragma once
// Byte counts the predictors need (weights per layer, embedding, LM head,
// KV per token). Provisional: replaced by ModelShape (engine/model/modelshape.h)
// when it lands, so that there is one parameter count in the engine.

#include "engine/model/modelconfig.h"
#include "engine/model/precision.h"

#include <cstdint>

namespace ws {

int64_t layerParameters(const ModelConfig& m, int layer, bool activeOnly);
int64_t layerWeightBytes(const ModelConfig& m, int layer, Precision p);
int64_t embeddingBytes(const ModelConfig& m, Precision p);
int64_t lmHeadBytes(const ModelConfig& m, Precision p); // 0 when tied
int64_t totalWeightBytes(const ModelConfig& m, Precision p);
int64_t activeWeightBytesPerToken(const ModelConfig& m, Precision p); // every active weight once + one embedding row
int64_t activeParameters(const ModelConfig& m);                       // per token, excluding the embedding lookup
int64_t layerKvBytesPerToken(const ModelConfig& m, int layer, int bytesPerValue = 2);
int64_t kvBytesPerToken(const ModelConfig& m, int bytesPerValue = 2);

} // namespace ws
