// ScenarioFormat::adjustments: what the window took differently from a scenario file (scenarioformat.h).
#include "app/scenario/scenarioformat.h"

#include "engine/model/precision.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <QLocale>

namespace ws {

QStringList ScenarioFormat::adjustments(const Scenario& asked, const Scenario& shown)
{
    const QLocale locale;
    QStringList out;
    auto text = [&](const char* field, const QString& file, const QString& now) {
        if (file != now)
            out << tr("%1: %2 in the file, %3 now")
                       .arg(QLatin1String(field), file.isEmpty() ? tr("none") : file, now.isEmpty() ? tr("none") : now);
    };
    auto number = [&](const char* field, int64_t file, int64_t now) {
        text(field, locale.toString(qlonglong(file)), locale.toString(qlonglong(now)));
    };
    text("model", asked.modelPreset, shown.modelPreset);
    text("model_file", asked.modelFile, shown.modelFile);
    text("hardware", asked.hardwarePreset, shown.hardwarePreset);
    number("devices", asked.devices, shown.devices);
    text("precision", QString::fromLatin1(precisionId(asked.precision).data()),
         QString::fromLatin1(precisionId(shown.precision).data()));
    number("batch", asked.batch, shown.batch);
    number("context_tokens", asked.contextTokens, shown.contextTokens);
    number("prompt_tokens", asked.promptTokens, shown.promptTokens);
    number("output_tokens", asked.outputTokens, shown.outputTokens);
    text("draft_model", asked.draftModel, shown.draftModel);
    text("layer", QString::fromLatin1(meshLayerId(asked.layer)), QString::fromLatin1(meshLayerId(shown.layer)));
    if (!(asked.defects == shown.defects))
        out << tr("defects: not as in the file");
    if (asked.layout.has_value() != shown.layout.has_value() || (asked.layout && !(*asked.layout == *shown.layout)))
        out << tr("layout: not as in the file");
    return out;
}

} // namespace ws
