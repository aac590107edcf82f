#pragma once
// The inputs of a comparison as rows for the panel's table: the model's
// architecture numbers, each system's hardware figures, the workload, the
// calibration profile each prediction used and the reading speed, each with
// the source it came from (the presets' `source` notes, the measurement files,
// the sources in docs/sources.md, or "your setting").

#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/prediction.h"
#include "views/compare/comparisonsnapshot.h"

#include <QCoreApplication>

#include <vector>

namespace ws {

class CompareInputs
{
    Q_DECLARE_TR_FUNCTIONS(ws::CompareInputs)

public:
    static std::vector<views::ComparisonInput> model(const ModelConfig& model);
    static std::vector<views::ComparisonInput> hardware(const HardwareSpec& spec, const QString& group);
    static std::vector<views::ComparisonInput> workload(const views::ComparisonSettings& settings,
                                                        const views::ReadingSpeed& reading,
                                                        const QString& tokensPerCharacterSource);
    static views::ComparisonInput profile(const Prediction& prediction, const QString& group);
    // "NVIDIA H100 SXM5" -> "H100": a bar or legend label (the full name stays in tooltips and the inputs table).
    static QString shortName(const QString& name);
};

} // namespace ws
