#pragma once
// What the comparison panel shows: one engine Prediction per compared system
// (or the error that stopped it), the inputs they rest on with their sources,
// the calibration profiles with their measured-vs-predicted rows, and the
// settings that produced them. The app builds a snapshot (ComparisonController)
// and hands it to ComparisonPanel::setSnapshot; the panel computes nothing
// beyond unit conversions and the reading-speed figures.

#include "engine/calibration/calibrationprofile.h"
#include "engine/calibration/measuredpoints.h"
#include "engine/predict/prediction.h"
#include "engine/predict/speculative.h"
#include "engine/predict/tokencost.h"
#include "engine/spec/workload.h"

#include <QColor>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <vector>

namespace ws::views {

struct ComparisonSystem
{
    QString hardwareId; // preset id, e.g. "h100"
    QString label;      // e.g. "8 × H100"
    QString name;       // short hardware name, e.g. "H100" (axis and legend labels)
    QColor color;
    bool ok = false; // false: `error` says why there is no prediction
    Prediction prediction;
    QString error;
    // Published or measured figures for this model, hardware, device count and precision, at any concurrency
    // (shipped calibration and reference rows, then the user's files).
    std::vector<MeasuredPoint> measured;
    // Dollars per million output tokens at every concurrency (engine/predict/tokencost.h), the hardware preset's
    // hourly cost per device (for "reset") and the providers' published API prices for this model and hardware.
    std::vector<CostPoint> costCurve;
    double presetHourlyUsdPerDevice = 0;
    std::vector<ApiPrice> apiPrices;
    // With API prices: the cost at 1, 2, 4, ... users, each on the fewest devices that hold them (engine costAtScale),
    // to say where the cost meets the price.
    std::vector<CostPoint> costAtScale;
    // Speculative decoding: the defaults and their sources, and, when on, the draft used and the effect
    // against the same prediction without it.
    SpeculativeDefaults speculativeDefaults;
    QString defaultDraftId;
    bool speculative = false;
    QString draftModelId;
    SpeculativeEffect speculativeEffect;
    double plainTokensPerSecondPerUser = 0;
};

struct ComparisonInput
{
    QString group;  // "Model", "WSE-3", "Workload", ...
    QString name;   // e.g. "HBM bandwidth"
    QString value;  // formatted with its unit
    QString source; // citation, "user setting" or "fitted: <profile>"
};

// Speculative decoding on one system, as a user set it (engine/predict/speculative.h gives the defaults).
struct SpeculativeChoice
{
    bool enabled = false;
    QString draftModelId; // model preset; empty: the default draft for the model
    int tokensPerStep = 4;
    double acceptanceRate = 0.7;

    bool operator==(const SpeculativeChoice&) const = default;
};

// The settings a user can change in the panel; the app recomputes on change.
struct ComparisonSettings
{
    QString modelId;
    // Users, context, prompt and answer sizes, the agent workflow and tokens per character: the engine's
    // workload and its defaults (engine/spec/workload.h). Its precision is not a setting here: the comparison
    // predicts at the scenario's precision, else the model's own.
    Workload workload;
    QString gpuProfile; // empty: the profile measured on each GPU (engine default)
    // A user's hourly cost per device by hardware preset id, in place of the preset's (absent: the preset's).
    QMap<QString, double> hourlyUsdPerDevice;
    // Speculative decoding by hardware preset id (absent: off).
    QMap<QString, SpeculativeChoice> speculative;

    bool operator==(const ComparisonSettings&) const = default;
};

// Human reading speed in Chinese characters per minute (a range), with its source.
struct ReadingSpeed
{
    double charactersPerMinuteLow = 221; // [Chinese-reading-rate]: 259.5 ± 38.2, mean ± 1 SD
    double charactersPerMinuteHigh = 298;
    QString source;
};

struct ComparisonSnapshot
{
    QString modelName;
    ComparisonSettings settings;
    QStringList modelIds;      // choices for the model selector
    QStringList modelNames;    // their display names, in the same order (ids only in files and the CLI)
    QStringList gpuProfileIds; // shipped GPU profiles to switch between
    std::vector<ComparisonSystem> systems;
    std::vector<ComparisonInput> inputs;
    std::vector<CalibrationProfile> profiles; // shipped, then user-fitted
    QStringList userProfileIds;               // which of `profiles` a user fitted
    ReadingSpeed reading;
    QString tokensPerCharacterSource;
};

} // namespace ws::views

Q_DECLARE_METATYPE(ws::views::ComparisonSettings)
