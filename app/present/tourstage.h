#pragma once
// What a tour acts on: the main window's own pieces (WindowStage), or a fake
// in tests. Every call returns at once; opening a scenario and injecting
// defects start background work, and the tour waits while isBusy().

#include "app/present/tourformat.h"

#include <QMap>
#include <QString>

namespace ws {

class TourStage
{
public:
    virtual ~TourStage() = default;

    // Each returns an error message, empty when the step started.
    virtual QString open(const TourStep& step, const QString& tourFile) = 0;
    virtual QString injectDefects(double deadFraction, quint64 seed) = 0;
    // engineLayer >= 0 (Dataflow only): the mesh engine's run of that layer plays instead of the whole token.
    virtual void setLayer(MeshLayer layer, int engineLayer = -1) = 0;
    virtual void zoomTo(const QRectF& region) = 0; // an empty region fits the whole wafer
    virtual void showComparison(bool show) = 0;
    // The race restarts at 0, driven by the tour's clock, at `timeScale` race seconds per tour second (0: the race's
    // demo pace, which the race shows as "slowed N×"); showRaceAt shows the moment `seconds` (race time) after its
    // start, and raceTimeScale is the scale in effect.
    virtual void startRace(double timeScale) = 0;
    virtual void showRaceAt(double seconds) = 0;
    virtual double raceTimeScale() const = 0;
    // The Dataflow layer at `fraction` (0..1) of token `token` (from 0) of `tokens`, at a pace in wafer µs per second.
    virtual void showToken(int token, int tokens, double fraction, double waferMicrosecondsPerSecond) = 0;
    // The seconds one token takes on the wafer shown (the engine's schedule); 0 when there is none.
    virtual double tokenSeconds() const = 0;
    virtual bool isBusy() const = 0;
    // The error of the last background work (a placement that failed), empty when none.
    virtual QString lastError() const = 0;
    // Caption placeholders (TourCaptions::placeholders()) and their values for what is shown now.
    virtual QMap<QString, QString> values() const = 0;
};

} // namespace ws
