#pragma once
// Options shared by render and record: a scenario file, or a model and a
// hardware preset (with precision and context) to build one.

#include "app/scenario/scenario.h"

#include <QCommandLineParser>

#include <optional>

namespace ws::cli {

struct LoadedScenario
{
    Scenario scenario;
    QString baseDir; // folder of the scenario file (resolves a relative model file), else empty
};

// Adds --scenario, --model, --hardware, --precision, --context.
void addScenarioOptions(QCommandLineParser& parser);
// Exactly one of --scenario FILE or --model M --hardware H; --precision/--context override either.
std::optional<LoadedScenario> scenarioFromOptions(const QCommandLineParser& parser, QString* error);

} // namespace ws::cli
