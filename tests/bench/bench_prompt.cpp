// Prompt processing speed: a prompt of N tokens (512 by default, llama-bench's pp512) through the forward pass
// batched (blocks of up to 512 tokens, as the generator runs a prompt) and token by token (one forward step
// per token, as decode runs), in the same run, at each thread count. The model is a file, or a Qwen3-0.6B-shaped
// one with random weights of the chosen type written to a temporary file (or kept with --keep).
//
// Usage: bench_prompt [--model FILE] [--type F16|Q8_0|Q4_K|Q5_K|Q6_K] [--keep FILE] [--tokens N]
//                     [--serial-tokens N] [--threads 1,2] [--runs N] [--kv f32|f16] [--stop-tokens N]
// --kv: the KV cache's type, F32 by default (the generator's and the llama.cpp reference tests'); llama-bench's
// default is f16. CPU share: processor time over wall time x threads (below 100%: other processes took part).
// Token by token costs a decode step per token: --serial-tokens (default 128) limits it to the prompt's first
// N tokens, so its figure is the speed over those (attention over a shorter cache: if anything, faster).
// Then Stop during a long prompt (--stop-tokens, 2,000 by default; 0 skips it): the generator reads a prompt of that
// many tokens in its own blocks (about 0.25 s each) at each thread count, and another thread calls cancel(), as the
// chat's Stop does, at 0.3, 0.7 and 1.1 s; printed: the time from cancel() to start()'s return, each and the worst.
#include "engine/decode/decodemodel.h"
#include "engine/decode/forward.h"
#include "engine/decode/generator.h"
#include "engine/gguf/syntheticmodel.h"
#include "tests/common/qwen3shape.h"

#include <QCoreApplication>

#include <QTemporaryDir>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace ws;

namespace {

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Seconds to evaluate `prompt` from position 0 in forward calls of at most `batch` tokens.
double evaluate(const DecodeModel& m, RunState& state, ThreadPool& pool, const std::vector<TokenId>& prompt, int batch)
{
    const double t0 = now();
    for (size_t at = 0; at < prompt.size(); at += size_t(batch)) {
        const size_t n = std::min(prompt.size() - at, size_t(batch));
        if (auto s = forward(m.config(), m.weights(), state, pool, std::span(prompt).subspan(at, n), int(at)); !s) {
            std::printf("forward: %s\n", s.error().message().c_str());
            std::exit(1);
        }
    }
    return now() - t0;
}

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The generator reading `prompt` (its own blocks), cancelled from another thread `after` seconds in: the seconds
// from cancel() to start()'s return, or a negative value if the prompt ended first.
double stopLatency(Generator& gen, const std::vector<TokenId>& prompt, double after)
{
    gen.resetCache(); // the whole prompt again, not the prefix the cache holds
    GenerationSettings settings;
    settings.maxTokens = 0;
    double cancelledAt = 0;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::duration<double>(after));
        cancelledAt = now();
        gen.cancel();
    });
    const Status s = gen.start(prompt, settings);
    const double returned = now();
    stopper.join();
    if (!s) {
        std::printf("start: %s\n", s.error().message().c_str());
        std::exit(1);
    }
    return gen.stopReason() == TurnEnd::Stopped ? returned - cancelledAt : -1.0;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    std::string modelFile, keep;
    GgmlType type = GgmlType::Q8_0;
    int tokens = 512, serialTokens = 128, runs = 3, stopTokens = 2000;
    std::vector<int> threadList{1, 2};
    KvCacheType kv = KvCacheType::F32;
    for (int i = 1; i < argc; ++i) {
        const auto arg = [&](const char* name) { return !std::strcmp(argv[i], name) && i + 1 < argc; };
        if (arg("--model"))
            modelFile = argv[++i];
        else if (arg("--keep"))
            keep = argv[++i];
        else if (arg("--tokens"))
            tokens = std::max(1, std::atoi(argv[++i]));
        else if (arg("--serial-tokens"))
            serialTokens = std::max(0, std::atoi(argv[++i]));
        else if (arg("--kv"))
            kv = std::strcmp(argv[++i], "f16") == 0 ? KvCacheType::F16 : KvCacheType::F32;
        else if (arg("--stop-tokens"))
            stopTokens = std::max(0, std::atoi(argv[++i]));
        else if (arg("--runs"))
            runs = std::max(1, std::atoi(argv[++i]));
        else if (arg("--threads")) {
            threadList.clear();
            for (const char* p = argv[++i]; *p;) {
                threadList.push_back(std::max(1, std::atoi(p)));
                while (*p && *p != ',')
                    ++p;
                if (*p == ',')
                    ++p;
            }
        } else if (arg("--type")) {
            const std::string t = argv[++i];
            for (GgmlType k : {GgmlType::F16, GgmlType::Q8_0, GgmlType::Q4_K, GgmlType::Q5_K, GgmlType::Q6_K})
                if (t == ggmlTypeName(k))
                    type = k;
        }
    }
    QTemporaryDir dir;
    std::string path = modelFile;
    if (path.empty()) {
        const SyntheticModelSpec spec = wstest::qwen3SmallShape(type); // Qwen3-0.6B shape
        path = keep.empty() ? dir.filePath(QStringLiteral("qwen3-0.6b-shape.gguf")).toStdString() : keep;
        if (auto s = writeSyntheticModel(path, spec); !s) {
            std::printf("cannot write the model: %s\n", s.error().message().c_str());
            return 1;
        }
        std::printf("qwen3-0.6B-shaped model, random %s matrices\n", ggmlTypeName(type));
    } else {
        std::printf("model %s\n", path.c_str());
    }
    auto model = DecodeModel::load(path);
    if (!model) {
        std::printf("%s\n", model.error().message().c_str());
        return 1;
    }
    std::mt19937 rng(7);
    std::vector<TokenId> prompt(static_cast<size_t>(tokens));
    for (TokenId& t : prompt)
        t = TokenId(rng() % uint32_t(model->config().vocabSize));
    const std::vector<TokenId> serial(prompt.begin(), prompt.begin() + std::min(tokens, serialTokens));
    std::printf("%7s %18s %24s %8s %10s   (prompt %d tokens, KV %s, token by token over the first %zu; median of %d)\n",
                "threads", "batched tokens/s", "token by token tokens/s", "ratio", "CPU share", tokens,
                kv == KvCacheType::F16 ? "f16" : "f32", serial.size(), runs);
    for (const int threads : threadList) {
        ThreadPool pool(threads);
        RunState state(model->config(), tokens + 1, std::min(tokens, 512), pool.threadCount(), kv);
        std::vector<double> batched, single;
        evaluate(*model, state, pool, prompt, state.maxBatch); // warm-up: pages and caches
        double batchedWall = 0, batchedCpu = 0;
        for (int r = 0; r < runs; ++r) {
            const double c0 = cpuSeconds();
            batched.push_back(evaluate(*model, state, pool, prompt, state.maxBatch));
            batchedCpu += cpuSeconds() - c0;
            batchedWall += batched.back();
            if (!serial.empty())
                single.push_back(evaluate(*model, state, pool, serial, 1));
        }
        const double b = double(tokens) / median(batched);
        const double s = serial.empty() ? 0.0 : double(serial.size()) / median(single);
        std::printf("%7d %18.1f %24.1f %7.2fx %9.0f%%\n", threads, b, s, s > 0.0 ? b / s : 0.0,
                    100.0 * batchedCpu / (batchedWall * threads));
        std::fflush(stdout);
    }
    if (stopTokens > 0) {
        std::vector<TokenId> longPrompt(static_cast<size_t>(stopTokens));
        for (TokenId& t : longPrompt)
            t = TokenId(rng() % uint32_t(model->config().vocabSize));
        std::printf("Stop during a %d-token prompt (the generator's own blocks; cancel() at 0.3, 0.7, 1.1 s):\n",
                    stopTokens);
        for (const int threads : threadList) {
            Generator gen(*model, stopTokens + 1, threads);
            std::printf("  %d thread(s): cancel() to start()'s return", threads);
            double worst = 0;
            for (const double after : {0.3, 0.7, 1.1}) {
                const double latency = stopLatency(gen, longPrompt, after);
                if (latency < 0) {
                    std::printf(" [prompt ended before %.1f s]", after);
                    continue;
                }
                worst = std::max(worst, latency);
                std::printf(" %.1f ms", latency * 1e3);
            }
            std::printf("; worst %.1f ms (target 200 ms)\n", worst * 1e3);
            std::fflush(stdout);
        }
    }
    return 0;
}
