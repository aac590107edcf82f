#pragma once
// The command line's scenario: one table of the options that say what a
// scenario is (engine/spec/scenariospec.h): the model, the hardware and how
// many devices, the precision and workload, the dead cores, the KV placement
// and the layout knobs. Each option's name, help, range and default is stated
// once here; the defaults are the engine's own (ScenarioSpec's and
// Workload's), so place, predict, sweep, optimize and execute read the same
// words the same way. A command names the options it takes and gets a
// ScenarioSpec back. (render and record read a scenario, the window's: see
// scenariooptions.h.)

#include "engine/spec/scenariospec.h"

#include <QCommandLineParser>
#include <QFlags>

#include <optional>

namespace ws::cli {

enum class SpecOption : unsigned
{
    Model = 1u << 0,       // --model PRESET|FILE (required)
    Hardware = 1u << 1,    // --hardware PRESET (required; a wafer unless AnyHardware)
    AnyHardware = 1u << 2, // with Hardware: GPUs and LPUs too
    Devices = 1u << 3,     // --devices N
    Precision = 1u << 4,   // --precision P (default: the model's own)
    Context = 1u << 5,     // --context N
    Batch = 1u << 6,       // --batch B
    Lengths = 1u << 7,     // --prompt-tokens N, --output-tokens N
    Defects = 1u << 8,     // --defect-rate R, --seed S
    Kv = 1u << 9,          // --kv shift|concat
    Layout = 1u << 10,     // --strategy, --weight-fill, --order, --bands
    Experts = 1u << 11,    // --experts sliced|blocks (MoE layers on a wafer)
};
Q_DECLARE_FLAGS(SpecOptions, SpecOption)
Q_DECLARE_OPERATORS_FOR_FLAGS(SpecOptions)

// Adds the options `which` names, with their help from the table.
void addSpecOptions(QCommandLineParser& parser, SpecOptions which);

// The specification the options describe (the model and hardware resolved from the presets or files), or nullopt
// after one line on stderr ("<command>: --model is required", a preset's own error, a value out of its range).
std::optional<ScenarioSpec> specFromOptions(const QCommandLineParser& parser, const QString& command,
                                            SpecOptions which);

} // namespace ws::cli
