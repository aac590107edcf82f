#pragma once
// Loads the shipped presets (resources/presets) straight from the source tree
// through the engine parsers, for engine tests that need real model and
// hardware specs (no Qt resources).

#include "engine/explore/layoutsweep.h"
#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/modelpresetparser.h"
#include "engine/wafer/placement/placer.h"
#include "tests/common/testmodels.h"

#include <QDir>
#include <QFile>
#include <QTest>

namespace wstest {

inline std::string readSource(const QString& relative)
{
    QFile f(sourcePath(relative));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

inline ws::HardwareSpec hardwarePreset(const QString& id)
{
    const QString path = QStringLiteral("resources/presets/hardware/%1.json").arg(id);
    auto hw = ws::parseHardwarePreset(readSource(path), path.toStdString());
    if (!hw)
        qFatal("cannot load %s: %s", qPrintable(path), hw.error().message().c_str());
    return *hw;
}

inline ws::HardwareSpec hardwarePreset(const char* id)
{
    return hardwarePreset(QString::fromLatin1(id));
}

inline ws::ModelConfig modelPreset(const QString& id)
{
    const QString path = QStringLiteral("resources/presets/models/%1.json").arg(id);
    auto m = ws::parseModelPreset(readSource(path), path.toStdString());
    if (!m)
        qFatal("cannot load %s: %s", qPrintable(path), m.error().message().c_str());
    return *m;
}

inline ws::ModelConfig modelPreset(const char* id)
{
    return modelPreset(QString::fromLatin1(id));
}

// A model preset placed on a hardware preset's wafer at bf16 with an 8,192-token context (the mesh engine's tests).
struct PlacedPreset
{
    ws::ModelConfig model;
    ws::HardwareSpec hardware;
    ws::Placement placement;
};

inline PlacedPreset placePreset(const QString& modelId, const QString& hardwareId)
{
    PlacedPreset p{modelPreset(modelId), hardwarePreset(hardwareId), {}};
    ws::PlacementOptions o;
    o.precision = ws::Precision::Bf16;
    o.contextTokens = 8192;
    auto placed = ws::placeModel(p.model, p.hardware.wafer, o);
    if (!placed)
        qFatal("%s", placed.error().message().c_str());
    p.placement = *placed;
    return p;
}

// A sweep or an optimisation of a model preset on WSE-3 at bf16 (engine/explore/layoutsweep.h).
inline ws::ScenarioSpec sweepBase(const char* model)
{
    ws::ScenarioSpec b;
    b.model = modelPreset(model);
    b.hardware = hardwarePreset("wse3");
    b.workload.precision = ws::Precision::Bf16;
    return b;
}

// The ids of the shipped presets in resources/presets/<folder> ("models", "hardware").
inline QStringList presetIds(const char* folder)
{
    QStringList ids;
    const QDir dir(wstest::sourcePath(QStringLiteral("resources/presets/") + QLatin1String(folder)));
    for (const QString& f : dir.entryList({QStringLiteral("*.json")}, QDir::Files))
        ids << f.chopped(5);
    return ids;
}

} // namespace wstest
