#include "views/mesh/meshdifference.h"

#include "views/mesh/meshimage.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ws::views {

namespace {
const QColor kLower(49, 104, 196);
const QColor kEqual(58, 62, 72);
const QColor kHigher(214, 72, 52);

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QString signedBytes(double v)
{
    return (v > 0 ? QStringLiteral("+") : v < 0 ? QStringLiteral("−") : QString()) + formatBytes(std::fabs(v));
}
} // namespace

QRgb DifferenceLayer::color(double value, double largest)
{
    if (!(largest > 0) || value == 0)
        return kEqual.rgb();
    const double t = std::min(1.0, std::fabs(value) / largest);
    return mix(kEqual, value < 0 ? kLower : kHigher, 0.25 + 0.75 * t).rgb();
}

QImage DifferenceLayer::image(const MeshDifference& d, int device)
{
    QImage img(std::max(1, d.meshCols), std::max(1, d.meshRows), QImage::Format_RGB32);
    img.fill(kEqual);
    if (device < 0 || size_t(device) >= d.values.size())
        return img;
    const std::vector<float>& v = d.values[size_t(device)];
    if (v.size() != size_t(d.meshCols) * size_t(d.meshRows))
        return img;
    for (int y = 0; y < d.meshRows; ++y) {
        auto* line = reinterpret_cast<QRgb*>(img.scanLine(y));
        for (int x = 0; x < d.meshCols; ++x)
            line[x] = color(v[size_t(y) * size_t(d.meshCols) + size_t(x)], d.largest);
    }
    return img;
}

QString DifferenceLayer::name(MeshDifference::Kind kind)
{
    return kind == MeshDifference::Kind::SramBytes ? tr("SRAM per core, B − A") : tr("Region time per token, B − A");
}

QString DifferenceLayer::valueText(const MeshDifference& d, double value)
{
    if (d.kind == MeshDifference::Kind::SramBytes)
        return tr("SRAM B − A: %1").arg(signedBytes(value));
    return tr("Region time B − A: %1 ms per token").arg(QLocale().toString(value, 'g', 4));
}

QSizeF DifferenceLayer::legendSize(const QFont& font)
{
    const QFontMetricsF fm(font);
    return {std::max(220.0, fm.horizontalAdvance(name(MeshDifference::Kind::RegionTimeMs)) + 20), 3 * fm.height() + 26};
}

void DifferenceLayer::paintLegend(QPainter& p, const QRectF& rect, const MeshDifference& d)
{
    const QFontMetricsF fm(p.font());
    p.save();
    p.fillRect(rect, QColor(18, 20, 26, 210));
    p.setPen(QColor(220, 224, 232));
    const QRectF title(rect.left() + 10, rect.top() + 6, rect.width() - 20, fm.height());
    p.drawText(title, Qt::AlignLeft | Qt::AlignVCenter, name(d.kind));
    const QRectF bar(rect.left() + 10, title.bottom() + 5, rect.width() - 20, 10);
    QLinearGradient g(bar.topLeft(), bar.topRight());
    g.setColorAt(0, QColor(color(-1, 1)));
    g.setColorAt(0.5, kEqual);
    g.setColorAt(1, QColor(color(1, 1)));
    p.fillRect(bar, g);
    const QRectF ticks(bar.left(), bar.bottom() + 3, bar.width(), fm.height());
    const bool bytes = d.kind == MeshDifference::Kind::SramBytes;
    const QString top = bytes ? signedBytes(d.largest) : tr("%1 ms").arg(QLocale().toString(d.largest, 'g', 3));
    const QString bottom = bytes ? signedBytes(-d.largest) : tr("%1 ms").arg(QLocale().toString(-d.largest, 'g', 3));
    p.drawText(ticks, Qt::AlignLeft | Qt::AlignVCenter, bottom);
    p.drawText(ticks, Qt::AlignHCenter | Qt::AlignVCenter, QStringLiteral("0"));
    p.drawText(ticks, Qt::AlignRight | Qt::AlignVCenter, top);
    p.restore();
}

} // namespace ws::views
