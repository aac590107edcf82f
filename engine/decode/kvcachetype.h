#pragma once
// The element type of the KV cache: F32 (llama.cpp's -ctk f32 -ctv f32, which
// the llama.cpp reference tests use) or F16 (llama.cpp's default), half the
// memory per position. Its own header, so that session requests can name it
// without the run state.

namespace ws {

enum class KvCacheType
{
    F32,
    F16
};
const char* kvCacheTypeName(KvCacheType type); // "f32", "f16" (llama.cpp's -ctk names)

} // namespace ws
