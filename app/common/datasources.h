#pragma once
// DataSources lists where the shipped numbers come from: for every preset
// and measurement file compiled into the engine (engine/calibration/measurementdata.h),
// its name and the distinct `source` notes of its fields, in file order.
// Help > About shows them, so every number the app draws can be traced.

#include <QList>
#include <QString>
#include <QStringList>

namespace ws {

struct DataSourceFile
{
    QString file;        // "hardware/wse3.json", "models/qwen3-32b.json", "measurements/gpu-a100-sglang.json"
    QString title;       // the file's "name", else its "description", else its "id"
    QStringList sources; // distinct "source" strings, objects walked in key order, arrays in order
};

class DataSources
{
public:
    // Hardware presets, then model presets, then measurements; each group sorted by file name.
    static QList<DataSourceFile> shipped();
    // Every distinct source over all shipped files.
    static QStringList allSources();
    // The distinct "source" strings anywhere in one JSON text (objects and arrays searched recursively).
    static QStringList sourcesIn(const QByteArray& json);
};

} // namespace ws
