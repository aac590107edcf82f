#pragma once
// Loads shipped presets from the source tree for engine tests (no Qt resources).

#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/modelpresetparser.h"

#include "tests/common/testmodels.h"

#include <QFile>

namespace wstest {

inline QByteArray readPresetFile(const QString& kind, const QString& id)
{
    QFile file(sourcePath(QStringLiteral("resources/presets/%1/%2.json").arg(kind, id)));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open preset %s/%s", qPrintable(kind), qPrintable(id));
    return file.readAll();
}

inline ws::ModelConfig modelPreset(const QString& id)
{
    const QByteArray text = readPresetFile(QStringLiteral("models"), id);
    auto m = ws::parseModelPreset(std::string_view(text.constData(), size_t(text.size())), id.toStdString());
    if (!m)
        qFatal("%s", m.error().message().c_str());
    return *m;
}

inline ws::HardwareSpec hardwarePreset(const QString& id)
{
    const QByteArray text = readPresetFile(QStringLiteral("hardware"), id);
    auto h = ws::parseHardwarePreset(std::string_view(text.constData(), size_t(text.size())), id.toStdString());
    if (!h)
        qFatal("%s", h.error().message().c_str());
    return *h;
}

} // namespace wstest
