#pragma once
// The prefill's pipeline (schedule.h): buildTokenSchedule records one chunk's
// pass stage by stage (the embedding, then each layer, each with its hop to
// the next stage), and this repeats it for the prompt's other chunks. Every
// chunk takes the same cycles in a stage (same tokens, same context), so
// chunk k's phases in a stage are chunk 0's moved to where the stage is free
// and chunk k has arrived: a flow shop whose makespan is the first chunk's
// pass plus (chunks - 1) times the slowest stage.

#include "engine/wafer/dataflow/schedule.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ws {

struct PipelineStage
{
    size_t firstPhase = 0;  // the stage's phases and its hop to the next stage: [firstPhase, endPhase) of the pass
    size_t endPhase = 0;    // (timing only: no phases, both 0)
    double startCycle = 0;  // chunk 0 enters the stage
    double endCycle = 0;    // and leaves it
    double hopEndCycle = 0; // and reaches the next stage
};

// Sets the prefill fields of `schedule` (one chunk's pass built, phases from tailPhase on being its first token)
// for `promptTokens` in chunks of `chunkTokens`: the other chunks' stages (their phases when keepPhases), the
// first token after the last chunk, totalCycles the makespan, phases sorted by start again.
void pipelineChunks(TokenSchedule& schedule, const std::vector<PipelineStage>& stages, size_t tailPhase,
                    int64_t promptTokens, int chunkTokens, bool keepPhases);

} // namespace ws
