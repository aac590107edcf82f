#pragma once
// A small engine schedule for dataflow view and controller tests: a 4-layer
// model on two wafers (2 layers each, side by side on an 80 x 40 mesh), timed
// by the engine's own TimingModel, so phases, hops and allreduces are real.

#include "engine/wafer/dataflow/schedule.h"

#include <memory>

namespace ws::testing {

inline ModelConfig smallModel()
{
    ModelConfig m;
    m.id = "small";
    m.name = "small";
    m.layers = 4;
    m.hiddenSize = 512;
    m.ffnSize = 1024;
    m.headCount = 8;
    m.kvHeadCount = 2;
    m.headDim = 64;
    m.vocabSize = 1000;
    return m;
}

inline ScheduleRegions smallLayout()
{
    ScheduleRegions l;
    l.meshCols = 80;
    l.meshRows = 40;
    for (int i = 0; i < 4; ++i)
        l.layers.push_back({i / 2, {(i % 2) * 40, 0, 40, 40}});
    l.deviceCount = 2;
    l.embedding = l.layers.front();
    l.lmHead = l.layers.back();
    return l;
}

inline TimingParams smallParams()
{
    TimingParams p;
    p.macCycles = 0.9;
    p.allreduceFixedCycles = 300;
    p.routingStageCycles = 15;
    return p;
}

inline std::shared_ptr<const TokenSchedule> smallSchedule(KvPlacement kv = KvPlacement::Shift)
{
    ScheduleOptions o;
    o.context = 512;
    o.kv = kv;
    return std::make_shared<const TokenSchedule>(
        buildTokenSchedule(smallModel(), smallLayout(), TimingModel(smallParams()), o));
}

// A prefill of a 64-token prompt in 4 chunks of 16, its clock stretched `stretch` times (a calibrated pace).
inline std::shared_ptr<const TokenSchedule> smallPrefill(double stretch = 1)
{
    ScheduleOptions o;
    o.tokens = 16;
    o.promptTokens = 64;
    o.context = 32;
    TokenSchedule s = buildTokenSchedule(smallModel(), smallLayout(), TimingModel(smallParams()), o);
    s.timeStretch = stretch;
    s.clockHz /= stretch;
    return std::make_shared<const TokenSchedule>(std::move(s));
}

} // namespace ws::testing
