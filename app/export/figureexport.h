#pragma once
// The heatmap as a figure (views/mesh/meshfigure.h) for File > Export
// figure… and `waferscope-cli render --compose`: the default title (model,
// precision, wafers, hardware, layer) and source line (the build, the
// workload, the wafer's cores and SRAM with the keys of docs/sources.md they
// come from) of a scene, and the file written through the Exporter (atomic,
// stamped with the build and scenario): PNG or SVG by the path's suffix.

#include "app/export/exportstamp.h"
#include "engine/spec/scenariospec.h"
#include "views/mesh/meshfigure.h"

#include <QCoreApplication>
#include <QString>

namespace ws {

class FigureExport
{
    Q_DECLARE_TR_FUNCTIONS(ws::FigureExport)

public:
    // "Qwen3-32B (BF16) on 2 × Cerebras WSE-3 (CS-3): SRAM occupancy"
    static QString defaultTitle(const ScenarioSpec& spec, const MeshSnapshot& snapshot, MeshLayer layer);
    // "WaferScope 0.1.0 (git …) · placement at a 4,096-token context · 762 × 1,176 cores per wafer, 48.0 KiB SRAM
    // per core [Cerebras-SDK, WaferLLM] (docs/sources.md)"
    static QString defaultSource(const ScenarioSpec& spec, const MeshSnapshot& snapshot, const QString& generator);
    // The defaults for a scene: a 16:9 slide at 300 DPI, every wafer, the title and source above.
    static views::MeshFigureOptions defaults(const ScenarioSpec& spec, const MeshSnapshot& snapshot, MeshLayer layer,
                                             const QString& generator);

    // Writes the figure as PNG (.png) or SVG (.svg); false with *error on another suffix or a failed write.
    static bool write(const views::MeshFigure& figure, const QString& path, const ExportStamp& stamp, QString* error,
                      views::MeshFigureSvgStats* stats = nullptr);
};

} // namespace ws
