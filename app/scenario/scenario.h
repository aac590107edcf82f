#pragma once
// A scenario is everything needed to reopen a layout exactly: which model on
// which hardware at which precision, the workload, injected defects and what
// the view showed. It is plain data; ScenarioFormat reads and writes it as a
// `.waferscope` file (versioned JSON).

#include "engine/model/precision.h"
#include "engine/wafer/placement/layout.h"
#include "engine/wafer/placement/meshsnapshot.h"
#include "engine/wafer/redundancy/defectplacement.h"

#include <QPointF>
#include <QString>
#include <QVector>

#include <cstdint>
#include <optional>

namespace ws {

struct Scenario
{
    // The defaults are the window's first scenario, stated once here (ScenarioController::defaultRequest reads
    // them): Qwen3-32B at bf16 on WSE-3 with 8,192 tokens of context.
    // Model: a preset id ("qwen3-32b") or a GGUF file (or both: the file's weights, the preset's name).
    QString modelPreset = QStringLiteral("qwen3-32b");
    QString modelFile; // as written in the file; relative paths are relative to the scenario file
    QString hardwarePreset = QStringLiteral("wse3");
    int devices = 0;                       // 0: the fewest devices that hold the model
    Precision precision = Precision::Bf16; // written as its id ("bf16")

    // Workload.
    int batch = 1;
    int64_t contextTokens = 8192;
    int64_t promptTokens = 512;
    int64_t outputTokens = 256;
    QString prompt; // chat prompt text for a live run (may be empty)
    // Speculative decoding's draft model on the wafer (a preset id; empty: none), placed on its own cores beside
    // the model (engine/wafer/placement/draftplacement.h). Written as workload.draft_model, version 2.
    QString draftModel;

    // Defects as the engine takes them (engine/wafer/redundancy/defectplacement.h): a random rate with its seed,
    // explicitly killed cores (physical coordinates), wafers edited by hand and the spare scheme.
    DefectRequest defects;

    // View state.
    MeshLayer layer = MeshLayer::SramOccupancy; // written as its id: sram | placement | kv | dataflow | defects
    int viewDevice = 0;
    double zoom = 1.0; // 1 = whole device fits the view
    QPointF center;    // view centre in core coordinates; (0, 0) with zoom 1 means "centred"

    // A layout placed exactly (engine/wafer/placement/layout.h) instead of the placer's choice; saved from
    // format version 2 on (a scenario without one is still written as version 1).
    std::optional<Layout> layout;

    bool operator==(const Scenario&) const = default;
};

} // namespace ws
