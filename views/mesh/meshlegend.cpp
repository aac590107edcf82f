#include "views/mesh/meshlegend.h"

#include "views/mesh/colorscale.h"
#include "views/mesh/meshimage.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <cmath>
#include <iterator>

namespace ws::views {

namespace {

constexpr double kPad = 10;
constexpr double kBarHeight = 12;
constexpr double kNarrowest = 80; // a legend wrapped narrower than this says too little a line

const ColorScale* scaleFor(MeshLayer layer)
{
    static const ColorScale sram = ColorScale::sramOccupancy();
    static const ColorScale kv = ColorScale::kvCache();
    static const ColorScale activity = ColorScale::activity();
    static const ColorScale links = ColorScale::linkWords();
    static const ColorScale values = ColorScale::values();
    switch (layer) {
    case MeshLayer::Links:
        return &links;
    case MeshLayer::Values:
        return &values;
    case MeshLayer::SramOccupancy:
        return &sram;
    case MeshLayer::KvCache:
        return &kv;
    case MeshLayer::Dataflow:
        return &activity;
    default:
        return nullptr;
    }
}

struct KindRow
{
    MatrixKind kind;
    const char* name;
};

const KindRow kKinds[] = {
    {MatrixKind::Attention, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "Attention Q/K/V")},
    {MatrixKind::AttentionOutput, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "Attention output")},
    {MatrixKind::FfnUp, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "FFN up/gate")},
    {MatrixKind::FfnDown, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "FFN down")},
    {MatrixKind::KvCache, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "KV cache")},
    {MatrixKind::Embedding, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "Embedding")},
    {MatrixKind::LmHead, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "LM head")},
};

struct StateRow
{
    CoreState state;
    const char* name;
};

const StateRow kStates[] = {
    {CoreState::Healthy, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "Healthy")},
    {CoreState::Dead, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "Dead")},
    {CoreState::SpareUsed, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "Spare in use")},
    {CoreState::SpareIdle, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "Spare, idle")},
    {CoreState::Shifted, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "Shifted")},
    {CoreState::Reserved, QT_TRANSLATE_NOOP("ws::views::MeshLegend", "Reserved (I/O)")},
};

bool hasDraft(const MeshSnapshot* s)
{
    if (s)
        for (const MeshOwner& o : s->owners)
            if (o.draft)
                return true;
    return false;
}

const char* const kDraftName = QT_TRANSLATE_NOOP("ws::views::MeshLegend", "Draft model (speculative decoding)");

constexpr int kWrap = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;

// The height of `text` wrapped to `width` (at spaces, or between characters in Chinese); -1 where a word is
// wider than that.
double wrapHeight(const QFontMetricsF& fm, const QString& text, double width)
{
    if (text.isEmpty())
        return 0;
    const QRectF r = fm.boundingRect(QRectF(0, 0, width, 1e6), kWrap, text);
    return r.width() <= width + 0.5 ? r.height() : -1;
}

// Draws `text` at the top of `rect`, wrapped to its width or on one line, and gives the height it took.
double drawLine(QPainter& p, const QRectF& rect, const QString& text, bool wrap)
{
    const QFontMetricsF fm(p.font());
    if (!wrap) {
        p.drawText(QPointF(rect.left(), rect.top() + fm.ascent()), text);
        return fm.height();
    }
    const double h = std::max(0.0, wrapHeight(fm, text, rect.width()));
    p.drawText(QRectF(rect.left(), rect.top(), rect.width(), h), kWrap, text);
    return h;
}

} // namespace

QString MeshLegend::caption() const
{
    const double perCore = m_snapshot ? static_cast<double>(m_snapshot->sramBytesPerCore) : 0;
    switch (m_layer) {
    case MeshLayer::SramOccupancy: // its colours crowd where placements fill cores (ColorScale::sramOccupancy)
        return perCore > 0 ? tr("share of %1 SRAM per core; half the colours over 80–100%").arg(formatBytes(perCore))
                           : tr("share of core SRAM; half the colours over 80–100%");
    case MeshLayer::KvCache:
        return perCore > 0 ? tr("share of %1 SRAM per core").arg(formatBytes(perCore)) : tr("share of core SRAM");
    case MeshLayer::WeightPlacement:
        return tr("hue = transformer layer");
    case MeshLayer::Dataflow:
        return tr("blue: forwarding, orange: computing; dim: earlier");
    case MeshLayer::Defects:
        return {};
    case MeshLayer::Links:
        return m_overlayTop > 0 ? tr("words leaving each core's router; lines: each link")
                                : tr("no mesh engine run: choose a layer to execute");
    case MeshLayer::Values:
        return m_overlayTop > 0 ? tr("signed sum of each core's partial products")
                                : tr("no values: they need a loaded model's weights");
    }
    return {};
}

QString MeshLegend::tickText(int i) const
{
    const QLocale locale;
    if (m_layer == MeshLayer::Links || m_layer == MeshLayer::Values) {
        // Links: 0 .. top words; Values: -top .. +top. Three significant digits.
        const double v = m_layer == MeshLayer::Links ? m_overlayTop * i / 4.0 : m_overlayTop * (i - 2) / 2.0;
        if (!(m_overlayTop > 0))
            return i == 0 ? locale.toString(0) : QString();
        const double a = std::fabs(v);
        if (a >= 1e6)
            return tr("%1 M").arg(locale.toString(v / 1e6, 'g', 3));
        if (a >= 1e3)
            return tr("%1 k").arg(locale.toString(v / 1e3, 'g', 3));
        return locale.toString(v, 'g', 3);
    }
    // Exact tick values: up to three decimals, trailing zeros dropped (1.25%, 2.5%, 5%).
    const double percent = std::round(100.0 * m_range * i / 4.0 * 1000.0) / 1000.0;
    return locale.toString(percent, 'g', 6) + QLatin1Char('%');
}

QSizeF MeshLegend::sizeHint(const QFont& font, double maxWidth) const
{
    const QSizeF full = fullSize(font);
    if (maxWidth <= 0 || full.width() <= maxWidth)
        return full;
    const double height = wrappedHeight(font, maxWidth - 2 * kPad);
    return height < 0 ? full : QSizeF(maxWidth, height);
}

double MeshLegend::narrowestWidth(const QFont& font) const
{
    const double full = fullSize(font).width();
    for (double w = kNarrowest; w < full; w += 8)
        if (wrappedHeight(font, w - 2 * kPad) >= 0)
            return w;
    return full;
}

std::optional<QRectF> MeshLegend::besideMesh(const QFont& font, QSizeF view, const QRectF& mesh) const
{
    const double right = view.width() - std::max(0.0, mesh.right());
    const double left = std::min(view.width(), mesh.left());
    const double room = std::max(left, right) - 24; // 12 px from the edge and from the mesh
    if (room < kNarrowest)
        return std::nullopt;
    const QSizeF size = sizeHint(font, room);
    if (size.width() > room || size.height() + 24 > view.height())
        return std::nullopt;
    const QRectF box = right >= left
                           ? QRectF(QPointF(view.width() - size.width() - 12, view.height() - size.height() - 12), size)
                           : QRectF(QPointF(12, 12), size);
    return box.intersects(mesh) ? std::nullopt : std::optional<QRectF>(box);
}

double MeshLegend::wrappedHeight(const QFont& font, double inner) const
{
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF fm(font);
    double height = 0;
    bool fits = true;
    auto add = [&](double h) {
        fits = fits && h >= 0;
        height += h;
    };
    add(kPad + 4 + kPad);
    add(wrapHeight(QFontMetricsF(bold), meshLayerName(m_layer), inner));
    if (scaleFor(m_layer)) {
        add(kBarHeight + 4 + fm.height());
        add(wrapHeight(fm, caption(), inner));
    } else if (m_layer == MeshLayer::WeightPlacement) {
        add(kBarHeight + 4 + fm.height() + 4);
        add(wrapHeight(fm, caption(), inner));
        for (const auto& k : kKinds)
            add(wrapHeight(fm, tr(k.name), inner - 24) + 2);
        if (hasDraft(m_snapshot))
            add(wrapHeight(fm, tr(kDraftName), inner - 24) + 2);
    } else {
        for (const auto& st : kStates)
            add(wrapHeight(fm, tr(st.name), inner - 24) + 2);
    }
    return fits ? height : -1;
}

QSizeF MeshLegend::fullSize(const QFont& font) const
{
    const QFontMetricsF fm(font);
    const double line = fm.height();
    double width = std::max(200.0, fm.horizontalAdvance(meshLayerName(m_layer)) + 2 * kPad);
    width = std::max(width, fm.horizontalAdvance(caption()) + 2 * kPad);
    double height = kPad + line + 4; // title
    if (scaleFor(m_layer)) {
        height += kBarHeight + 4 + line + line;
    } else if (m_layer == MeshLayer::WeightPlacement) {
        height += kBarHeight + 4 + line + 4 + std::size(kKinds) * (line + 2); // hue strip, ends, kinds
        for (const auto& k : kKinds)
            width = std::max(width, fm.horizontalAdvance(tr(k.name)) + 24 + 2 * kPad);
        if (hasDraft(m_snapshot)) {
            height += line + 2;
            width = std::max(width, fm.horizontalAdvance(tr(kDraftName)) + 24 + 2 * kPad);
        }
        // "L0   caption   L<n>" on one line under the hue strip.
        const QString last = tr("L%1").arg(QLocale().toString(99));
        width = std::max(width, 2 * fm.horizontalAdvance(last) + fm.horizontalAdvance(caption()) + 24 + 2 * kPad);
    } else {
        height += std::size(kStates) * (line + 2);
        for (const auto& s : kStates)
            width = std::max(width, fm.horizontalAdvance(tr(s.name)) + 24 + 2 * kPad);
    }
    return {width, height + kPad};
}

void MeshLegend::paint(QPainter& p, const QRectF& rect) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    QPainterPath frame;
    frame.addRoundedRect(rect, 8, 8);
    p.fillPath(frame, QColor(18, 20, 26, 215));
    p.setPen(QColor(255, 255, 255, 40));
    p.drawPath(frame);

    const QFontMetricsF fm(p.font());
    const QFont base = p.font();
    const bool wrap = rect.width() + 0.5 < fullSize(base).width();
    QFont bold = base;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(QColor(235, 238, 245));
    const QRectF inner = rect.adjusted(kPad, kPad, -kPad, -kPad);
    double title = fm.height();
    if (wrap)
        title = drawLine(p, inner, meshLayerName(m_layer), true);
    else
        p.drawText(QRectF(inner.left(), inner.top(), inner.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   meshLayerName(m_layer));
    p.setFont(base);
    const QRectF body = inner.adjusted(0, title + 4, 0, 0);
    if (scaleFor(m_layer))
        paintScale(p, body, wrap);
    else if (m_layer == MeshLayer::WeightPlacement)
        paintPlacement(p, body, wrap);
    else
        paintDefects(p, body, wrap);
    p.restore();
}

void MeshLegend::paintScale(QPainter& p, const QRectF& r, bool wrap) const
{
    const ColorScale* scale = scaleFor(m_layer);
    const QFontMetricsF fm(p.font());
    const QRectF bar(r.left(), r.top(), r.width(), kBarHeight);
    QLinearGradient g(bar.topLeft(), bar.topRight());
    for (const auto& stop : scale->stops())
        g.setColorAt(stop.position, stop.color);
    p.fillRect(bar, g);
    p.setPen(QColor(255, 255, 255, 60));
    p.drawRect(bar);

    const QLocale locale;
    p.setPen(QColor(200, 205, 215));
    // Five ticks; a label is drawn only where it does not touch its neighbours
    // (the ends always, then the middle, then the quarters).
    struct Label
    {
        QString text;
        double left = 0;
        double right = 0;
        bool shown = false;
    };
    Label labels[5];
    for (int i = 0; i <= 4; ++i) {
        const double x = bar.left() + bar.width() * i / 4.0;
        p.drawLine(QPointF(x, bar.bottom()), QPointF(x, bar.bottom() + 3));
        labels[i].text = tickText(i);
        const double w = fm.horizontalAdvance(labels[i].text);
        labels[i].left = std::clamp(x - w / 2, r.left(), r.right() - w);
        labels[i].right = labels[i].left + w;
    }
    auto fits = [&labels](int i) {
        for (const Label& other : labels)
            if (&other != &labels[i] && other.shown && labels[i].left < other.right + 6 &&
                other.left < labels[i].right + 6)
                return false;
        return true;
    };
    for (int i : {0, 4, 2, 1, 3})
        labels[i].shown = fits(i);
    for (const Label& label : labels)
        if (label.shown)
            p.drawText(QPointF(label.left, bar.bottom() + 4 + fm.ascent()), label.text);
    p.setPen(QColor(160, 166, 178));
    drawLine(p, QRectF(r.left(), bar.bottom() + 4 + fm.height(), r.width(), r.height()), caption(), wrap);
}

void MeshLegend::paintPlacement(QPainter& p, const QRectF& r, bool wrap) const
{
    const QFontMetricsF fm(p.font());
    int layers = 0;
    if (m_snapshot)
        for (const auto& o : m_snapshot->owners)
            if (!o.draft)
                layers = std::max(layers, o.layerIndex + 1);
    layers = std::max(layers, 1);

    // Hue strip: one segment per transformer layer (FFN up shade).
    const QRectF bar(r.left(), r.top(), r.width(), kBarHeight);
    const double segment = bar.width() / layers;
    for (int i = 0; i < layers; ++i)
        p.fillRect(QRectF(bar.left() + i * segment, bar.top(), segment + 0.5, bar.height()),
                   QColor(PlacementPalette::color(i, MatrixKind::FfnUp)));
    p.setPen(QColor(200, 205, 215));
    const QLocale locale;
    const QString first = tr("L%1").arg(locale.toString(0));
    const QString last = tr("L%1").arg(locale.toString(layers - 1));
    p.drawText(QPointF(bar.left(), bar.bottom() + 4 + fm.ascent()), first);
    p.drawText(QPointF(bar.right() - fm.horizontalAdvance(last), bar.bottom() + 4 + fm.ascent()), last);
    const QString cap = caption();
    p.setPen(QColor(160, 166, 178));
    double y = bar.bottom() + 8 + fm.height();
    if (wrap) // under the layer numbers
        y += drawLine(p, QRectF(r.left(), y - 4, r.width(), r.height()), cap, true);
    else
        p.drawText(QPointF(bar.center().x() - fm.horizontalAdvance(cap) / 2, bar.bottom() + 4 + fm.ascent()), cap);

    // Matrix kinds, shown with layer 0's hue.
    auto swatch = [&](QRgb color, const QString& name) {
        p.fillRect(QRectF(r.left(), y + 2, 18, fm.height() - 4), QColor(color));
        p.setPen(QColor(200, 205, 215));
        y += drawLine(p, QRectF(r.left() + 24, y, r.width() - 24, r.height()), name, wrap) + 2;
    };
    for (const auto& k : kKinds)
        swatch(PlacementPalette::color(0, k.kind), tr(k.name));
    if (hasDraft(m_snapshot))
        swatch(PlacementPalette::draftColor(MatrixKind::FfnUp), tr(kDraftName));
}

void MeshLegend::paintDefects(QPainter& p, const QRectF& r, bool wrap) const
{
    const QFontMetricsF fm(p.font());
    double y = r.top();
    for (const auto& s : kStates) {
        p.fillRect(QRectF(r.left(), y + 2, 18, fm.height() - 4), QColor(coreStateColor(s.state)));
        p.setPen(QColor(200, 205, 215));
        y += drawLine(p, QRectF(r.left() + 24, y, r.width() - 24, r.height()), tr(s.name), wrap) + 2;
    }
}

} // namespace ws::views
