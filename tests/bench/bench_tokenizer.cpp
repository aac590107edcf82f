// Tokenizer speed: time to load each vocabulary (GGUF open + Tokenizer
// build), and encode/decode throughput on llama.cpp's tokenizer test text
// repeated to about 1 MB, plus the latency of encoding one chat-sized prompt.
// Prints figures; asserts nothing about time.

#include "engine/gguf/gguffile.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/common/testmodels.h"
#include "tests/engine/tokenizer/testvectors.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const char* models[] = {"stories260K/stories260K.gguf", "tokenizer/ggml-vocab-llama-spm.gguf",
                            "tokenizer/ggml-vocab-llama3.gguf", "tokenizer/ggml-vocab-qwen3.gguf"};
    const std::string sample = wstest::readAll(wstest::testModelPath("tokenizer/ggml-vocab-llama3.gguf.inp"));
    if (sample.empty()) {
        std::printf("test models not found under %s\n", qPrintable(wstest::testModelsDir()));
        return 1;
    }
    std::string big;
    while (big.size() < (1u << 20))
        big += sample;
    const std::string prompt = big.substr(0, 2000); // a long chat message

    std::printf("%-40s %9s %9s %11s %11s %10s %10s\n", "vocabulary", "tokens", "load ms", "enc MB/s", "enc tok/s",
                "2KB us", "dec MB/s");
    for (const char* model : models) {
        const std::string path = wstest::testModelPath(model).toStdString();
        std::vector<double> loads;
        std::optional<ws::Tokenizer> tok;
        for (int rep = 0; rep < 5; ++rep) {
            const auto start = Clock::now();
            auto file = ws::GgufFile::open(path);
            if (!file) {
                std::printf("%s: %s\n", model, file.error().message().c_str());
                return 1;
            }
            auto t = ws::Tokenizer::fromGguf(*file);
            if (!t) {
                std::printf("%s: %s\n", model, t.error().message().c_str());
                return 1;
            }
            loads.push_back(secondsSince(start));
            tok.emplace(std::move(*t));
        }

        std::vector<double> encodes;
        size_t tokenCount = 0;
        for (int rep = 0; rep < 3; ++rep) {
            const auto start = Clock::now();
            tokenCount = tok->encode(big, false, false).size();
            encodes.push_back(secondsSince(start));
        }
        std::vector<double> prompts;
        for (int rep = 0; rep < 51; ++rep) {
            const auto start = Clock::now();
            const auto ids = tok->encode(prompt, true, true);
            prompts.push_back(secondsSince(start));
            if (ids.empty())
                return 1;
        }
        const auto ids = tok->encode(big, false, false);
        std::vector<double> decodes;
        size_t decodedBytes = 0;
        for (int rep = 0; rep < 3; ++rep) {
            const auto start = Clock::now();
            decodedBytes = tok->decode(ids).size();
            decodes.push_back(secondsSince(start));
        }
        const double enc = median(encodes);
        std::printf("%-40s %9d %9.1f %11.2f %11.0f %10.1f %10.2f\n", model, tok->vocabSize(), median(loads) * 1e3,
                    big.size() / enc / 1e6, tokenCount / enc, median(prompts) * 1e6,
                    decodedBytes / median(decodes) / 1e6);
    }
    std::printf("(load: median of 5, GGUF open + Tokenizer::fromGguf; encode: %.2f MB of llama.cpp's test text, "
                "median of 3; 2KB: one 2000-byte prompt with BOS and special parsing, median of 51)\n",
                big.size() / 1e6);
    return 0;
}
