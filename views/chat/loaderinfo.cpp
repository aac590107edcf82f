#include "views/chat/loaderinfo.h"

#include <QEvent>
#include <QStringList>

namespace ws::views {

LoaderInfo::LoaderInfo(QWidget* parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("chatLoaderInfo"));
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setVisible(false);
}

void LoaderInfo::setSummary(const std::optional<ModelSummary>& summary)
{
    m_summary = summary;
    setText(m_summary ? format(*m_summary, locale()) : QString());
    setVisible(m_summary.has_value());
}

void LoaderInfo::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        setSummary(m_summary);
    QLabel::changeEvent(event);
}

QString LoaderInfo::formatBytes(uint64_t bytes, const QLocale& locale)
{
    if (bytes < 1'000'000'000ull)
        return tr("%1 MB").arg(locale.toString(double(bytes) / 1e6, 'f', bytes < 10'000'000ull ? 1 : 0));
    return tr("%1 GB").arg(locale.toString(double(bytes) / 1e9, 'f', bytes < 10'000'000'000ull ? 1 : 0));
}

QString LoaderInfo::format(const ModelSummary& s, const QLocale& locale)
{
    QStringList types;
    uint64_t total = 0;
    for (const TensorTypeShare& t : s.types)
        total += t.bytes;
    for (const TensorTypeShare& t : s.types) {
        const double share = total > 0 ? 100.0 * double(t.bytes) / double(total) : 0.0;
        const QString type = QString::fromStdString(t.type);
        types << (share < 0.05 ? tr("%1 < 0.1%").arg(type)
                               : tr("%1 %2%").arg(type, locale.toString(share, 'f', share < 1 ? 1 : 0)));
    }
    const double parameters = double(s.parameters);
    const QString params = parameters >= 1e9 ? tr("%1 B parameters").arg(locale.toString(parameters / 1e9, 'f', 2))
                                             : tr("%1 M parameters").arg(locale.toString(parameters / 1e6, 'f', 1));
    QStringList parts;
    parts << QString::fromStdString(s.architecture) << params << tr("tensors: %1").arg(types.join(QStringLiteral(", ")))
          << tr("trained context %1").arg(locale.toString(s.trainedContext));
    QString need =
        tr("needs %1: weights %2").arg(formatBytes(s.neededBytes(), locale), formatBytes(s.weightBytes, locale));
    if (s.context > 0)
        need = tr("%1 + KV cache %2 (%3 tokens, %4)")
                   .arg(need, formatBytes(s.kvCacheBytes, locale), locale.toString(s.context),
                        QString::fromLatin1(kvCacheTypeName(s.kvCacheType)).toUpper());
    parts << need;
    if (s.availableBytes)
        parts << tr("%1 available").arg(formatBytes(*s.availableBytes, locale));
    return parts.join(QStringLiteral(" · "));
}

} // namespace ws::views
