#include "app/cli/scenariooptions.h"

#include "app/scenario/scenarioformat.h"
#include "engine/model/precision.h"

#include <QFileInfo>

namespace ws::cli {

void addScenarioOptions(QCommandLineParser& parser)
{
    parser.addOption(
        {QStringLiteral("scenario"), QStringLiteral("A .waferscope scenario file."), QStringLiteral("file")});
    parser.addOption({QStringLiteral("model"), QStringLiteral("Model preset id or file."), QStringLiteral("model")});
    parser.addOption(
        {QStringLiteral("hardware"), QStringLiteral("Hardware preset id (a wafer)."), QStringLiteral("id")});
    parser.addOption({QStringLiteral("precision"), QStringLiteral("fp32, bf16, fp16, fp8, int8, int4 or fp4."),
                      QStringLiteral("p")});
    parser.addOption(
        {QStringLiteral("context"), QStringLiteral("Context tokens the KV cache holds."), QStringLiteral("n")});
}

std::optional<LoadedScenario> scenarioFromOptions(const QCommandLineParser& parser, QString* error)
{
    LoadedScenario loaded;
    const bool fromFile = parser.isSet(QStringLiteral("scenario"));
    const bool fromPresets = parser.isSet(QStringLiteral("model")) || parser.isSet(QStringLiteral("hardware"));
    if (fromFile == fromPresets) {
        *error = QStringLiteral("give either --scenario FILE or --model M --hardware H");
        return std::nullopt;
    }
    if (fromFile) {
        const QString path = parser.value(QStringLiteral("scenario"));
        auto scenario = ScenarioFormat::load(path, error);
        if (!scenario)
            return std::nullopt;
        loaded.scenario = *scenario;
        loaded.baseDir = QFileInfo(path).absolutePath();
    } else {
        if (!parser.isSet(QStringLiteral("model")) || !parser.isSet(QStringLiteral("hardware"))) {
            *error = QStringLiteral("--model and --hardware go together");
            return std::nullopt;
        }
        const QString model = parser.value(QStringLiteral("model"));
        const bool isFile = model.contains(QLatin1Char('/')) || model.endsWith(QLatin1String(".json")) ||
                            model.endsWith(QLatin1String(".gguf"));
        loaded.scenario.modelPreset = isFile ? QString() : model;
        loaded.scenario.modelFile = isFile ? model : QString();
        loaded.scenario.hardwarePreset = parser.value(QStringLiteral("hardware"));
    }
    if (parser.isSet(QStringLiteral("precision"))) {
        const QString precision = parser.value(QStringLiteral("precision"));
        const auto parsed = parsePrecision(precision.toStdString());
        if (!parsed) {
            *error =
                QStringLiteral("--precision must be fp32, bf16, fp16, fp8, int8, int4 or fp4, got '%1'").arg(precision);
            return std::nullopt;
        }
        loaded.scenario.precision = *parsed;
    }
    if (parser.isSet(QStringLiteral("context"))) {
        bool ok = false;
        const qlonglong context = parser.value(QStringLiteral("context")).toLongLong(&ok);
        if (!ok || context < 1 || context > (qlonglong(1) << 30)) {
            *error = QStringLiteral("--context must be an integer from 1 to %1, got '%2'")
                         .arg(qlonglong(1) << 30)
                         .arg(parser.value(QStringLiteral("context")));
            return std::nullopt;
        }
        loaded.scenario.contextTokens = context;
    }
    return loaded;
}

} // namespace ws::cli
