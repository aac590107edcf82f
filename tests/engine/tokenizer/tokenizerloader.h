#pragma once
// Loads a tokenizer from shared/models once per test process (the 150k-token
// vocabularies take a moment): a .bin path is a llama2.c tokenizer of 512
// tokens, anything else a GGUF file. Null on error (the error is logged).

#include "engine/gguf/gguffile.h"
#include "engine/tokenizer/tokenizer.h"

#include <QtGlobal>

#include <map>
#include <memory>
#include <string>

namespace wstest {

inline std::shared_ptr<const ws::Tokenizer> loadTokenizer(const std::string& path)
{
    static std::map<std::string, std::shared_ptr<const ws::Tokenizer>> cache;
    if (auto it = cache.find(path); it != cache.end())
        return it->second;
    std::shared_ptr<const ws::Tokenizer> result;
    if (path.ends_with(".bin")) {
        auto t = ws::Tokenizer::fromLlama2cFile(path, 512);
        if (t)
            result = std::make_shared<const ws::Tokenizer>(std::move(*t));
        else
            qWarning("%s", t.error().message().c_str());
    } else {
        auto file = ws::GgufFile::open(path);
        if (!file) {
            qWarning("%s", file.error().message().c_str());
            return nullptr;
        }
        auto t = ws::Tokenizer::fromGguf(*file);
        if (t)
            result = std::make_shared<const ws::Tokenizer>(std::move(*t));
        else
            qWarning("%s", t.error().message().c_str());
    }
    cache[path] = result;
    return result;
}

} // namespace wstest
