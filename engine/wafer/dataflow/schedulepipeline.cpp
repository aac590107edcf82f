#include "engine/wafer/dataflow/schedulepipeline.h"

#include <algorithm>

namespace ws {

void pipelineChunks(TokenSchedule& s, const std::vector<PipelineStage>& stages, size_t tailPhase, int64_t promptTokens,
                    int chunkTokens, bool keepPhases)
{
    const int64_t tokens = std::max(1, chunkTokens);
    s.promptTokens = promptTokens;
    s.chunkTokens = int(tokens);
    s.chunks = int(std::max<int64_t>(1, (promptTokens + tokens - 1) / tokens));
    // finish[i]: when the latest chunk so far leaves stage i.
    std::vector<double> finish;
    finish.reserve(stages.size());
    for (const PipelineStage& st : stages)
        finish.push_back(st.endCycle);
    std::vector<Phase> added;
    for (int k = 1; k < s.chunks; ++k) {
        double arrives = 0; // chunk k's input at stage i (the first stage takes it as soon as it is free)
        for (size_t i = 0; i < stages.size(); ++i) {
            const PipelineStage& st = stages[i];
            const double start = i == 0 ? finish[0] : std::max(arrives, finish[i]);
            if (keepPhases)
                for (size_t p = st.firstPhase; p < st.endPhase; ++p) {
                    Phase copy = s.phases[p];
                    const double shift = start - st.startCycle;
                    copy.startCycle += shift;
                    copy.computeEndCycle += shift;
                    copy.endCycle += shift;
                    copy.chunk = k;
                    added.push_back(copy);
                }
            finish[i] = start + (st.endCycle - st.startCycle);
            arrives = finish[i] + (st.hopEndCycle - st.endCycle);
        }
    }
    // The first token: the last chunk's hidden state on to the LM head, once it leaves the last layer.
    s.promptEndCycle = finish.empty() ? 0.0 : finish.back();
    const double tailShift = finish.empty() ? 0.0 : finish.back() - stages.back().endCycle;
    for (size_t p = tailPhase; p < s.phases.size(); ++p) {
        s.phases[p].startCycle += tailShift;
        s.phases[p].computeEndCycle += tailShift;
        s.phases[p].endCycle += tailShift;
        s.phases[p].chunk = s.chunks - 1;
    }
    s.totalCycles = s.passCycles + tailShift;
    if (added.empty())
        return;
    s.phases.insert(s.phases.end(), added.begin(), added.end());
    // Stable: parallel experts keep sharing their start next to each other.
    std::stable_sort(s.phases.begin(), s.phases.end(),
                     [](const Phase& a, const Phase& b) { return a.startCycle < b.startCycle; });
}

} // namespace ws
