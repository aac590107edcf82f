// Prediction speed: one token of llama-3.1-405b on WSE-3 (target < 1 ms), the
// per-frame activity cost on a full WSE-3 (target < 8 ms for 30 fps), and a
// sweep of 1,000 predictions over models x hardware x concurrency (target < 1 s).
// Measures and prints; asserts nothing.
#include "engine/calibration/measurementdata.h"
#include "engine/predict/predictor.h"
#include "engine/predict/waferpredictor.h"
#include "engine/wafer/dataflow/activity.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace ws;
using Clock = std::chrono::steady_clock;

namespace {
double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
} // namespace

int main()
{
    const ModelConfig* m405 = shippedModel("llama-3.1-405b");
    const HardwareSpec* wse3 = shippedHardware("wse3");
    if (!m405 || !wse3) {
        std::fprintf(stderr, "shipped presets missing\n");
        return 1;
    }
    Workload w;
    // The first call fits the calibration profiles and places the model; later calls reuse both
    // (the placements through this sweep's cache).
    PlacementCache placements;
    PredictOptions cached;
    cached.wafer.placements = &placements;
    auto t0 = Clock::now();
    (void)predict(*m405, *wse3, w, cached);
    const double first = msSince(t0);

    // 1. One token of 405B: the schedule on a ready placement, and a whole predict() from scratch.
    auto setup = prepareWafer(*m405, *wse3, w, {});
    if (!setup) {
        std::fprintf(stderr, "%s\n", setup.error().message().c_str());
        return 1;
    }
    const TimingModel timing(setup->params);
    ScheduleOptions so;
    so.context = w.contextTokens;
    TokenSchedule schedule;
    const int reps = 200;
    t0 = Clock::now();
    for (int i = 0; i < reps; ++i) {
        so.tokenIndex = uint64_t(i);
        schedule = buildTokenSchedule(*m405, setup->layout, timing, so);
    }
    const double perSchedule = msSince(t0) / reps;
    t0 = Clock::now();
    const int predictReps = 20;
    double tps = 0;
    for (int i = 0; i < predictReps; ++i)
        tps = predict(*m405, *wse3, w, cached)->tokensPerSecondPerUser;
    const double perPredict = msSince(t0) / predictReps;
    std::printf("llama-3.1-405b on %d x wse3: %zu phases per token, %.1f tokens/s per user\n", setup->devicesNeeded,
                schedule.phases.size(), tps);
    std::printf("  time to predict one token (schedule + timing): %.3f ms (target < 1 ms)\n", perSchedule);
    std::printf("  first predict() (calibration fits + placement + prediction): %.3f ms\n", first);
    std::printf("  predict() with the placement cached (TTFT, range, curve included): %.3f ms\n", perPredict);

    // 1b. Speculative decoding with a draft model: the draft's home is chosen by predicting each candidate
    // (engine/predict/speculative.h chooseDraftHome), so one prediction weighs several; target < 100 ms.
    if (const ModelConfig* m70 = shippedModel("llama-3.1-70b")) {
        for (const char* draftId : {"llama-3.1-8b"}) {
            const ModelConfig* draft = shippedModel(draftId);
            if (!draft)
                continue;
            Workload sw;
            sw.speculative.enabled = true;
            sw.speculative.draftModel = *draft;
            for (int pass = 0; pass < 2; ++pass) {
                PlacementCache fresh;
                PredictOptions po;
                po.wafer.placements = pass == 0 ? &fresh : &placements;
                const int n = pass == 0 ? 1 : 10;
                t0 = Clock::now();
                Expected<Prediction> p = predict(*m70, *wse3, sw, po);
                for (int i = 1; i < n; ++i)
                    p = predict(*m70, *wse3, sw, po);
                std::printf("llama-3.1-70b + %s draft on wse3 (%s, %d wafers, %.1f tokens/s): %.1f ms per prediction "
                            "(%s; target < 100 ms)\n",
                            draftId, p ? p->draftHome.c_str() : "error", p ? p->devices : 0,
                            p ? p->tokensPerSecondPerUser : 0.0, msSince(t0) / n,
                            pass == 0 ? "placements afresh" : "placements cached");
            }
        }
    }

    // 2. Activity per frame on a full WSE-3 device, sampled over the token; 1 and 8 requests in flight.
    std::vector<CoreActivity> frame;
    fillActivity(schedule, 0, wse3->wafer.meshCols, wse3->wafer.meshRows, 0, frame); // allocate once
    for (int inFlight : {1, 8}) {
        const int frames = 600;
        std::vector<double> times;
        t0 = Clock::now();
        for (int f = 0; f < frames; ++f) {
            const auto f0 = Clock::now();
            const double t = schedule.totalCycles * (f + 0.5) / frames;
            fillActivity(schedule, f % std::max(1, setup->devicesNeeded), wse3->wafer.meshCols, wse3->wafer.meshRows, t,
                         frame, inFlight);
            times.push_back(msSince(f0));
        }
        const double mean = msSince(t0) / frames;
        std::sort(times.begin(), times.end());
        std::printf("activity frame on a full wse3 (%d x %d cores), %d request(s) in flight: %.3f ms mean, %.3f ms "
                    "median, %.3f ms p99, %.3f ms worst (target < 8 ms)\n",
                    wse3->wafer.meshCols, wse3->wafer.meshRows, inFlight, mean, times[times.size() / 2],
                    times[times.size() * 99 / 100], times.back());
    }

    // 3. Sweep: models x hardware x concurrency, 1,000 predictions.
    std::vector<const ModelConfig*> models;
    for (const char* id : {"qwen3-0.6b", "qwen3-8b", "llama-3.1-8b", "mistral-7b", "qwen3-32b", "gemma-3-27b",
                           "llama-3.1-70b", "qwen3-30b-a3b", "llama-3.1-405b", "qwen3-235b-a22b"})
        if (const ModelConfig* m = shippedModel(id))
            models.push_back(m);
    std::vector<const HardwareSpec*> hardware;
    for (const char* id : {"wse2", "wse3", "a100", "h100", "h200", "b200", "groq-lpu"})
        if (const HardwareSpec* h = shippedHardware(id))
            hardware.push_back(h);
    const std::vector<int> concurrency{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
    // Two passes: the first places each model on each wafer preset once (the placer's cost),
    // the second reuses those placements, as a UI sweeping concurrency or workloads does.
    for (int pass = 0; pass < 2; ++pass) {
        int done = 0;
        int failed = 0;
        double byKind[3] = {0, 0, 0};
        t0 = Clock::now();
        for (size_t i = 0; done < 1000; ++i) {
            const ModelConfig* m = models[i % models.size()];
            const HardwareSpec* h = hardware[(i / models.size()) % hardware.size()];
            Workload sw;
            sw.concurrency = concurrency[(i / (models.size() * hardware.size())) % concurrency.size()];
            sw.contextTokens = 2048;
            const auto p0 = Clock::now();
            if (!predict(*m, *h, sw, cached))
                ++failed;
            byKind[int(h->kind)] += msSince(p0);
            ++done;
        }
        std::printf("sweep pass %d (%s): %d predictions (%zu models x %zu hardware x concurrency) in %.1f ms (target < "
                    "1000 ms), %d "
                    "errors\n",
                    pass + 1, pass == 0 ? "placing each model on each wafer" : "placements reused", done, models.size(),
                    hardware.size(), msSince(t0), failed);
        std::printf(
            "  of which wafers %.1f ms (first placement of each model x wafer included), GPUs %.1f ms, LPU %.1f ms\n",
            byKind[0], byKind[1], byKind[2]);
        std::printf("  placement cache: %zu entries, %zu hits, %zu misses so far\n", placements.size(),
                    placements.hits(), placements.misses());
    }
    return 0;
}
