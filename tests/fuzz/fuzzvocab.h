#pragma once
// A real vocabulary for the fuzz targets that encode text: read once from the models folder
// (wsfuzz::modelPath) and kept for the process; null when the file is missing or refused.

#include "engine/gguf/gguffile.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/fuzz/fuzzinput.h"

namespace wsfuzz {

inline const ws::Tokenizer* loadVocabulary(const char* relative)
{
    auto file = ws::GgufFile::open(modelPath(relative));
    if (!file)
        return nullptr;
    auto tokenizer = ws::Tokenizer::fromGguf(*file);
    return tokenizer ? new ws::Tokenizer(std::move(*tokenizer)) : nullptr; // lives for the process
}

} // namespace wsfuzz
