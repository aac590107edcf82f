#pragma once
// ScenarioFormat reads and writes `.waferscope` files: UTF-8 JSON with a
// top-level integer "version" (currently 2: version 2 adds
// "layout" and workload.draft_model, speculative decoding's draft model on its own cores; a scenario with
// neither is still written as version 1, so version-1 files round-trip as they are). Reading is strict: unknown keys,
// wrong types, numbers out of range, corrupt or truncated JSON and files from
// a newer version are rejected with one clear line naming the file and field,
// and nothing is changed. Writing is canonical (sorted keys, fixed layout,
// shortest round-trip numbers), so save, open, save gives identical bytes;
// files are written through QSaveFile, so a failed save leaves the old file.

#include "app/scenario/scenario.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <optional>

namespace ws {

class ScenarioFormat
{
    Q_DECLARE_TR_FUNCTIONS(ws::ScenarioFormat)

public:
    static constexpr int kVersion = 2;
    static constexpr qint64 kMaxFileBytes = 16 * 1024 * 1024;

    static QByteArray toJson(const Scenario& scenario);
    // `source` names the file in error messages.
    static std::optional<Scenario> fromJson(const QByteArray& json, const QString& source, QString* error);

    static std::optional<Scenario> load(const QString& path, QString* error);
    static bool save(const Scenario& scenario, const QString& path, QString* error);

    // Ids accepted for Scenario::layer, in display order.
    static QStringList layerIds();
    // What the window could not take as a file wrote it (a context beyond the model's, a hardware preset that is
    // not a wafer, a draft that cannot draft for the model, …): one line per field of `asked` that `shown`
    // holds differently, "context_tokens: 10,000,000 in the file, 40,960 now". The view's wafer, position and zoom are
    // left out (the view fits them to the placement and the window).
    static QStringList adjustments(const Scenario& asked, const Scenario& shown);
};

} // namespace ws
