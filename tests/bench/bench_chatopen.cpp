// Opening a model in the chat: the time GeneratorSessionModel::load takes and
// the rise of the process's peak RSS (VmHWM), with the chat's defaults (a
// 4,096-token context, F16 KV cache), then the same after a first short turn
// (the weights are paged in and the KV cache grows to that turn). The
// summary line is the loader's (architecture, parameters, memory needed).
// Prints; asserts nothing. The target for a qwen3-0.6B-shaped Q8_0
// file: under 1.5 GB and under 2 s.
//
// The model needs a vocabulary (the chat tokenizes), so it is given:
//     bench_chatopen FILE.gguf [--context N] [--kv f16|f32] [--tokens N]
// e.g. a qwen3-0.6B-shaped random model written with llama.cpp's gguf-py and
// quantised with llama-quantize to Q8_0 (kept under /tmp, never committed).
#include "engine/session/generatorsessionmodel.h"
#include "engine/session/turnrun.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

using namespace ws;

namespace {

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A /proc/self/status field in bytes (VmHWM: peak RSS, VmRSS: current RSS).
uint64_t statusBytes(const char* field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    const size_t n = std::strlen(field);
    while (std::getline(status, line))
        if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':')
            return uint64_t(std::strtoull(line.c_str() + n + 1, nullptr, 10)) * 1024;
    return 0;
}

double mb(uint64_t bytes)
{
    return double(bytes) / 1e6;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_chatopen FILE.gguf [--context N] [--kv f16|f32] [--tokens N]\n");
        return 2;
    }
    GeneratorSessionModel::Options options;
    options.kvCacheType = KvCacheType::F16; // the chat's default (llama.cpp's)
    int tokens = 16;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--context")
            options.contextLength = std::atoi(argv[i + 1]);
        else if (key == "--kv")
            options.kvCacheType = std::strcmp(argv[i + 1], "f32") == 0 ? KvCacheType::F32 : KvCacheType::F16;
        else if (key == "--tokens")
            tokens = std::atoi(argv[i + 1]);
    }
    const uint64_t peak0 = statusBytes("VmHWM");
    const double t0 = now();
    auto model = GeneratorSessionModel::load(argv[1], options);
    const double openSeconds = now() - t0;
    if (!model) {
        std::printf("refused: %s\n", model.error().message().c_str());
        return 1;
    }
    const uint64_t peakOpen = statusBytes("VmHWM");
    const ModelSummary& s = (*model)->info().summary;
    std::printf("%s: %s, %.3f B parameters, trained context %d; opened for %d tokens, KV %s\n", argv[1],
                s.architecture.c_str(), double(s.parameters) / 1e9, s.trainedContext, s.context,
                kvCacheTypeName(s.kvCacheType));
    std::printf("  loader: %s\n", describeNeed(s).c_str());
    std::printf("  open: %.3f s, peak RSS +%.0f MB (threads %d)\n", openSeconds, mb(peakOpen - peak0),
                (*model)->threadCount());

    TurnRequest request;
    request.messages = {{ChatRole::User, "Once upon a time"}};
    request.mode = PromptMode::Completion;
    request.maxTokens = tokens;
    const double t1 = now();
    auto turn = runTurn(**model, request);
    const double turnSeconds = now() - t1;
    if (!turn) {
        std::printf("turn failed: %s\n", turn.error().message().c_str());
        return 1;
    }
    const uint64_t peakTurn = statusBytes("VmHWM");
    std::printf("  first turn: %d prompt + %d tokens in %.3f s (first token %.3f s), peak RSS +%.0f MB since "
                "before the open\n",
                turn->last->promptTokens, turn->last->generatedTokens, turnSeconds, turn->last->firstTokenSeconds,
                mb(peakTurn - peak0));
    std::printf("  open + first turn: %.3f s\n", openSeconds + turnSeconds);
    return 0;
}
