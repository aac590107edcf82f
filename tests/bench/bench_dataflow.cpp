// Dataflow animation frame cost on a full WSE-3 fabric (762 x 1176 cores):
// the engine's closed-form activity sampled 4 times for the glow trail, plus
// the frame it is handed out in (a light frame: it shares the base snapshot).
// Prints milliseconds per frame (the animation's budget at 30 fps is 33 ms).
#include "engine/wafer/dataflow/meshframe.h"

#include <QElapsedTimer>

#include <cstdio>

using namespace ws;

int main()
{
    ModelConfig m; // Llama-3.1-70B shapes (facts §3)
    m.layers = 80;
    m.hiddenSize = 8192;
    m.ffnSize = 28672;
    m.headCount = 64;
    m.kvHeadCount = 8;
    m.headDim = 128;
    m.vocabSize = 128256;
    const int cols = 762, rows = 1176, w = 190, h = 235; // 4 x 5 regions per wafer, 20 layers per wafer
    ScheduleRegions l;
    l.meshCols = cols;
    l.meshRows = rows;
    for (int i = 0; i < m.layers; ++i) {
        const int k = i % 20;
        l.layers.push_back({i / 20, {(k % 4) * w, (k / 4) * h, w, h}});
    }
    l.deviceCount = 4;
    l.embedding = l.layers.front();
    l.lmHead = l.layers.back();
    TimingParams p;
    p.macCycles = 0.9;
    p.allreduceFixedCycles = 300;
    p.routingStageCycles = 15;
    const TokenSchedule s = buildTokenSchedule(m, l, TimingModel(p), ScheduleOptions{});

    auto base = std::make_shared<MeshSnapshot>();
    base->meshCols = cols;
    base->meshRows = rows;
    base->deviceCount = 4;
    base->sramFraction.assign(4, std::vector<float>(size_t(cols) * rows, 0.5f));
    base->kvFraction = base->sramFraction;
    base->owner.assign(4, std::vector<uint16_t>(size_t(cols) * rows, 1));

    const int frames = 60;
    std::vector<float> glow;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < frames; ++i) {
        DataflowFrameOptions o;
        o.cycle = s.totalCycles * i / frames;
        o.trailCycles = s.totalCycles / 200;
        fillDataflowGlow(s, cols, rows, o, glow);
    }
    const double glowMs = timer.nsecsElapsed() * 1e-6 / frames;
    timer.restart();
    for (int i = 0; i < frames; ++i) {
        DataflowFrameOptions o;
        o.cycle = s.totalCycles * i / frames;
        o.trailCycles = s.totalCycles / 200;
        auto frame = dataflowFrame(base, &s, o);
    }
    const double frameMs = timer.nsecsElapsed() * 1e-6 / frames;
    auto reused = std::make_shared<MeshFrame>();
    reused->base = base;
    timer.restart();
    for (int i = 0; i < frames; ++i) {
        DataflowFrameOptions o;
        o.cycle = s.totalCycles * i / frames;
        o.trailCycles = s.totalCycles / 200;
        fillDataflowFrame(*reused, s, o);
    }
    const double reusedMs = timer.nsecsElapsed() * 1e-6 / frames;
    std::printf("dataflow frame, %d x %d cores, 4 wafers, %zu phases, token %.1f us:\n", cols, rows, s.phases.size(),
                s.seconds() * 1e6);
    std::printf("  activity + glow trail (4 samples): %.2f ms per frame\n", glowMs);
    std::printf("  frame into a reused frame (the controller's pool): %.2f ms per frame\n", reusedMs);
    std::printf("  fresh frame (shares the 4 wafers' snapshot, no copy): %.2f ms per frame\n", frameMs);
    return 0;
}
