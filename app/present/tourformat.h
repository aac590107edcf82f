#pragma once
// A tour is a scripted walk through WaferScope for presentation mode and for
// `waferscope-cli record --tour`: a JSON file of steps that open a scenario,
// choose a layer, zoom to a region, play tokens of the dataflow, inject
// defects, show the comparison, run the token race, show captions and wait.
//
//   {"version": 1, "title": "A token's trip across the wafer",
//    "steps": [{"kind": "open", "model": "qwen3-32b", "hardware": "wse3", "precision": "bf16"},
//              {"kind": "layer", "layer": "dataflow"},   (with "engine_layer": L, the mesh engine's run of L)
//              {"kind": "caption", "text": "One token of {model} on {hardware}.", "seconds": 4},
//              {"kind": "play", "tokens": 1, "wafer_us_per_second": 200, "from": 0, "to": 1}]}
//
// Reading is strict, like ScenarioFormat: an unknown step kind, a missing
// field, a field of the wrong type, a value out of range or an unknown key is
// refused with one line naming the file, the step (index from 1 and kind) and
// the field. Captions are English source texts, translated at display time in
// the "Tour" context (app/present/tourcaptions.h); {name} placeholders are
// filled with the engine's values (TourCaptions::placeholders()).
// This file knows no widgets: parsing needs QtCore and the engine's ids only.

#include "engine/model/precision.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <QByteArray>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace ws {

enum class TourStepKind
{
    Open,
    Layer,
    Zoom,
    Play,
    Defects,
    Compare,
    Race,
    Caption,
    Wait
};

struct TourStep
{
    TourStepKind kind = TourStepKind::Wait;
    // open: a scenario file (relative to the tour's folder, or ":/..."), or a model preset on hardware.
    QString scenarioPath;
    QString model;
    QString hardware = QStringLiteral("wse3");
    Precision precision = Precision::Bf16;
    qint64 contextTokens = 8192;
    // layer
    MeshLayer layer = MeshLayer::SramOccupancy;
    int engineLayer = -1; // dataflow: play the mesh engine's run of this layer; -1: the closed forms' whole token
    // zoom: a region in core coordinates, or fit the whole wafer (empty region).
    QRectF region;
    // play: tokens of the dataflow at a pace (wafer microseconds shown per real second).
    int tokens = 1;
    double waferMicrosecondsPerSecond = 100;
    double from = 0, to = 1; // the part of each token played (fractions of its schedule)
    // defects: a random fraction of dead cores, seeded.
    double deadFraction = 0;
    quint64 seed = 1;
    // compare and race: show (or hide) the comparison; the race runs for `seconds` at `timeScale` race seconds per
    // real second, or at the race's demo pace when 0 (time_scale left out: views/compare/tokenrace.h).
    bool show = true;
    double timeScale = 0;
    // caption: an English source text; race, caption and wait: real seconds.
    QString text;
    double seconds = 0;
};

struct Tour
{
    QString source; // the file it came from (error messages, relative scenario paths)
    QString title;
    std::vector<TourStep> steps;
};

class TourFormat
{
public:
    static constexpr int kVersion = 1;
    static constexpr qint64 kMaxFileBytes = 1024 * 1024;
    static constexpr int kMaxSteps = 1000;

    // `source` names the file in error messages.
    static std::optional<Tour> fromJson(const QByteArray& json, const QString& source, QString* error);
    static std::optional<Tour> load(const QString& path, QString* error);

    static QString kindId(TourStepKind kind);
    static QStringList kindIds();
    // The real seconds a step lasts at pace 1: caption, wait and race their `seconds`, play its tokens (the part
    // from..to of each) at its pace given the seconds one token takes on the wafer; the others 0.
    static double stepSeconds(const TourStep& step, double tokenSeconds);
    // The shipped tours (":/tours/..."), in presentation order.
    static QStringList shippedTours();
};

} // namespace ws
