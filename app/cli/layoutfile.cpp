#include "app/cli/layoutfile.h"

#include "engine/wafer/placement/layoutjson.h"

#include <QFile>
#include <QSaveFile>

namespace ws::cli {

std::optional<Layout> readLayoutFile(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot open: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    auto layout = layoutFromJson(std::string_view(bytes.constData(), size_t(bytes.size())));
    if (!layout) {
        *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(layout.error().text));
        return std::nullopt;
    }
    return *layout;
}

bool writeLayoutFile(const QString& path, const Layout& layout, QString* error)
{
    QSaveFile file(path);
    const std::string text = layoutToJson(layout);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) ||
        !file.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace ws::cli
