// Decode speed: tokens/s of greedy generation (256 tokens) for stories260K
// with 1 and 2 threads, and for a model larger than the CPU caches (a
// qwen3-0.6B-shaped model with random weights written to a temporary folder,
// or any GGUF file given with --model), together with the memory bandwidth
// this machine gives (measured here by streaming a 1 GiB buffer with the same
// thread count) and the fraction of it the decode uses (weight bytes read per
// token x tokens/s). Prints one table row per thread count; asserts nothing.
// tests/bench/decode_vs_llama.sh runs it interleaved with llama.cpp's llama-bench.
//
// Usage: bench_decode [--large-tokens N] [--skip-large] [--skip-small] [--runs N] [--threads 1,2,...]
//                     [--large-type F16|Q8_0|Q4_K|Q5_K|Q6_K] [--model FILE]
//                     [--keep FILE]  (writes the large model to FILE and keeps it, e.g. for llama-bench)
#include "engine/decode/decodemodel.h"
#include "engine/decode/generator.h"
#include "engine/gguf/syntheticmodel.h"
#include "tests/common/qwen3shape.h"
#include "tests/common/testmodels.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <immintrin.h>
#include <sys/mman.h>

using namespace ws;

namespace {

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// Sums floats [b, e) with four AVX accumulators (this file is not built with -march, hence the attribute).
__attribute__((target("avx2"))) float sumRange(const float* data, size_t b, size_t e)
{
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (size_t i = b; i + 32 <= e; i += 32) {
        a0 = _mm256_add_ps(a0, _mm256_loadu_ps(data + i));
        a1 = _mm256_add_ps(a1, _mm256_loadu_ps(data + i + 8));
        a2 = _mm256_add_ps(a2, _mm256_loadu_ps(data + i + 16));
        a3 = _mm256_add_ps(a3, _mm256_loadu_ps(data + i + 24));
    }
    alignas(32) float out[8];
    _mm256_store_ps(out, _mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
    return out[0] + out[1] + out[2] + out[3] + out[4] + out[5] + out[6] + out[7];
}

// Read bandwidth: each thread sums its share of a 1 GiB buffer; best of `reps`. The buffer is in transparent
// huge pages where the kernel offers them, as the decode's weights are (a resident file, MappedFile): summed
// in 4 KiB pages the same buffer streams about 10 % slower here, which would understate the ceiling the
// decode is measured against.
double measureBandwidthGBs(int threads, int reps)
{
    const size_t bytes = size_t(1) << 30;
    void* mapped = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
        return 0.0;
#ifdef MADV_HUGEPAGE
    ::madvise(mapped, bytes, MADV_HUGEPAGE);
#endif
    struct Unmap
    {
        void* p;
        size_t n;
        ~Unmap() { ::munmap(p, n); }
    } unmap{mapped, bytes};
    const std::span<float> buffer(static_cast<float*>(mapped), bytes / sizeof(float));
    for (size_t i = 0; i < buffer.size(); i += 1024)
        buffer[i] = float(i & 7); // touch every page
    double best = 0.0;
    std::atomic<float> sink{0.0f};
    for (int r = 0; r < reps; ++r) {
        const double t0 = now();
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) {
            pool.emplace_back([&, t] {
                const size_t n = buffer.size(), b = n * size_t(t) / size_t(threads),
                             e = n * size_t(t + 1) / size_t(threads);
                sink.store(sink.load() + sumRange(buffer.data(), b, e));
            });
        }
        for (auto& th : pool)
            th.join();
        best = std::max(best, double(bytes) / (now() - t0) / 1e9);
    }
    return best;
}

// Peak resident set size of this process (VmHWM), in bytes.
uint64_t peakRssBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return uint64_t(std::strtoull(line.c_str() + 6, nullptr, 10)) * 1024;
    return 0;
}

double cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// Median tokens/s of `runs` generations; cpuShare (if given): the processor time the process got during them
// over wall time x threads, which says how much other processes' load took from the figure (1: none).
double tokensPerSecond(const DecodeModel& model, const std::vector<TokenId>& prompt, int tokens, int threads, int runs,
                       double* cpuShare = nullptr)
{
    Generator gen(model, int(prompt.size()) + tokens, threads);
    GenerationSettings settings;
    settings.maxTokens = tokens;
    settings.stopAtEndOfGeneration = false;
    std::vector<double> rates;
    double cpu = 0.0, wall = 0.0;
    for (int r = 0; r < runs; ++r) {
        const double c0 = cpuSeconds(), w0 = now();
        auto result = gen.generate(prompt, settings);
        cpu += cpuSeconds() - c0;
        wall += now() - w0;
        if (!result) {
            std::printf("  error: %s\n", result.error().message().c_str());
            return 0.0;
        }
        rates.push_back(result->tokensPerSecond());
    }
    if (cpuShare)
        *cpuShare = wall > 0.0 ? cpu / (wall * threads) : 0.0;
    return median(rates);
}

// The weight types of the matrices one decode step reads, with their share of the bytes: "Q4_K 61%, Q6_K 39%".
std::string typeMix(const TransformerWeights& w)
{
    std::vector<std::pair<GgmlType, uint64_t>> bytes;
    auto add = [&](const WeightMatrix& m) {
        for (auto& [t, b] : bytes)
            if (t == m.type) {
                b += m.sizeBytes();
                return;
            }
        bytes.emplace_back(m.type, m.sizeBytes());
    };
    for (const LayerWeights& l : w.layers)
        for (const WeightMatrix* m : {&l.wq, &l.wk, &l.wv, &l.wo, &l.gate, &l.up, &l.down})
            add(*m);
    add(w.output);
    uint64_t total = 0;
    for (const auto& [t, b] : bytes)
        total += b;
    std::sort(bytes.begin(), bytes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (const auto& [t, b] : bytes) {
        char part[48];
        std::snprintf(part, sizeof part, "%s%s %.0f%%", out.empty() ? "" : ", ", ggmlTypeName(t),
                      100.0 * double(b) / double(std::max<uint64_t>(total, 1)));
        out += part;
    }
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int largeTokens = 64;
    int runs = 5;
    bool skipLarge = false;
    bool skipSmall = false;
    std::vector<int> threadList;
    GgmlType largeType = GgmlType::Q8_0;
    std::string keep;
    std::string modelFile;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--large-tokens") && i + 1 < argc)
            largeTokens = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--skip-large"))
            skipLarge = true;
        else if (!std::strcmp(argv[i], "--skip-small"))
            skipSmall = true;
        else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
            for (const char* p = argv[++i]; *p;) {
                char* end = nullptr;
                const long t = std::strtol(p, &end, 10);
                if (end == p)
                    break;
                if (t > 0)
                    threadList.push_back(int(t));
                p = *end == ',' ? end + 1 : end;
            }
        } else if (!std::strcmp(argv[i], "--model") && i + 1 < argc)
            modelFile = argv[++i];
        else if (!std::strcmp(argv[i], "--keep") && i + 1 < argc)
            keep = argv[++i];
        else if (!std::strcmp(argv[i], "--large-type") && i + 1 < argc) {
            const std::string t = argv[++i];
            for (GgmlType k : {GgmlType::F16, GgmlType::Q8_0, GgmlType::Q4_K, GgmlType::Q5_K, GgmlType::Q6_K})
                if (t == ggmlTypeName(k))
                    largeType = k;
        }
    }
    std::printf("bench_decode: %u hardware threads; numbers vary with load from other processes\n",
                std::thread::hardware_concurrency());

    const std::string stories = wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf")).toStdString();
    const std::vector<TokenId> prompt{1, 403, 407, 261, 378}; // <s> Once upon a time
    for (const char* file : {"stories260K.gguf", "stories260K-Q8_0.gguf", "stories260K.bin"}) {
        if (skipSmall)
            break;
        const std::string path =
            wstest::testModelPath(QStringLiteral("stories260K/") + QLatin1String(file)).toStdString();
        auto model = DecodeModel::load(path);
        if (!model) {
            std::printf("%s: %s\n", file, model.error().message().c_str());
            continue;
        }
        const double t1 = tokensPerSecond(*model, prompt, 256, 1, runs);
        const double t2 = tokensPerSecond(*model, prompt, 256, 2, runs);
        std::printf("%-22s greedy 256 tokens, median of %d: 1 thread %8.0f tokens/s   2 threads %8.0f tokens/s\n", file,
                    runs, t1, t2);
    }
    if (!skipSmall)
        std::printf("  (llama.cpp on this machine, models README section 4: llama-cli F32 KV 6,290 / 4,810 t/s for "
                    "stories260K F32, 6,120 / 4,690 for Q8_0; llama-bench tg128 8,283 / 4,449)\n");

    if (skipLarge)
        return 0;
    QTemporaryDir dir;
    const SyntheticModelSpec spec = wstest::qwen3SmallShape(largeType); // Qwen3-0.6B shape
    std::string path = modelFile;
    if (path.empty()) {
        path = keep.empty() ? dir.filePath(QStringLiteral("qwen3-0.6b-shape-random.gguf")).toStdString() : keep;
        const double w0 = now();
        if (auto s = writeSyntheticModel(path, spec); !s) {
            std::printf("cannot write the large model: %s\n", s.error().message().c_str());
            return 1;
        }
        std::printf("\nqwen3-0.6B-shaped model, random %s matrices (%s embedding), written in %.1f s\n",
                    ggmlTypeName(spec.matrixType), ggmlTypeName(spec.embeddingType), now() - w0);
    } else {
        std::printf("\nmodel %s\n", path.c_str());
    }
    double t0 = now();
    // Opening as the chat does: load (map), a generator limited to the default 4,096-token context, and
    // a first turn's prompt and token; the KV cache grows to what the turn needs.
    const uint64_t rssBefore = peakRssBytes();
    t0 = now();
    auto model = DecodeModel::load(path);
    if (!model) {
        std::printf("%s\n", model.error().message().c_str());
        return 1;
    }
    {
        Generator first(*model, 1, 1);
        first.limitContext(4096);
        GenerationSettings one;
        one.maxTokens = 1;
        one.stopAtEndOfGeneration = false;
        if (auto r = first.generate(std::vector<TokenId>{1, 2, 3, 4}, one); !r)
            std::printf("  first turn: %s\n", r.error().message().c_str());
    }
    std::printf("  open + first token (context 4096): %.2f s, peak RSS +%.0f MB (file %.0f MB)\n", now() - t0,
                double(peakRssBytes() - rssBefore) / 1e6, double(std::filesystem::file_size(path)) / 1e6);
    const double bytesPerToken = double(model->weights().bytesPerToken());
    std::printf("  weights read per token: %.1f MB (every matrix once, the tied 151936 x 1024 output included)\n",
                bytesPerToken / 1e6);
    std::printf("  weight types: %s\n", typeMix(model->weights()).c_str());
    if (threadList.empty()) {
        threadList = {1, 2};
        if (std::thread::hardware_concurrency() > 2)
            threadList.push_back(int(std::thread::hardware_concurrency()));
    }
    const std::string label = modelFile.empty() ? std::string("synthetic-") + ggmlTypeName(spec.matrixType)
                                                : std::filesystem::path(modelFile).filename().string();
    const std::vector<TokenId> largePrompt{1, 2, 3, 4};
    std::printf("\n%-36s %7s %14s %10s %16s %12s %10s\n", "model", "threads", "WaferScope t/s", "GB/s",
                "bandwidth GB/s", "% bandwidth", "CPU share");
    for (const int threads : threadList) {
        const double bandwidth = measureBandwidthGBs(threads, 3);
        double share = 0.0;
        const double tps = tokensPerSecond(*model, largePrompt, largeTokens, threads, std::min(runs, 3), &share);
        const double used = bytesPerToken * tps / 1e9;
        std::printf("%-36s %7d %14.2f %10.2f %16.2f %11.0f%% %9.0f%%\n", label.c_str(), threads, tps, used, bandwidth,
                    100.0 * used / bandwidth, 100.0 * share);
        std::fflush(stdout);
    }
    std::printf("(greedy %d tokens after a 4-token prompt, median of %d; bandwidth: best of 3 sums of a 1 GiB "
                "buffer, same threads; CPU share: processor time the decode got / (wall time x threads))\n",
                largeTokens, std::min(runs, 3));
    return 0;
}
