#include "views/defects/yieldpanel.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <iterator>

namespace ws::views {

namespace {

QList<QPointF> pointsOf(const std::vector<double>& x, const std::vector<double>& y)
{
    QList<QPointF> out;
    out.reserve(qsizetype(std::min(x.size(), y.size())));
    for (size_t i = 0; i < x.size() && i < y.size(); ++i)
        out.append(QPointF(x[i], y[i]));
    return out;
}

// The classical models: each curve's values and its export column, in the export's order (setCurves gives the
// series their points in the same order).
struct ModelCurve
{
    std::vector<double> YieldCurves::*values;
    const char* key;
};
constexpr ModelCurve kModels[] = {{&YieldCurves::poisson, "poisson"},
                                  {&YieldCurves::murphy, "murphy"},
                                  {&YieldCurves::seeds, "seeds"},
                                  {&YieldCurves::negativeBinomial, "negative_binomial"}};

} // namespace

YieldPanel::YieldPanel(QWidget* parent) : QWidget(parent), m_chart(new QChart)
{
    m_poisson = new QLineSeries(m_chart);
    m_murphy = new QLineSeries(m_chart);
    m_seeds = new QLineSeries(m_chart);
    m_negativeBinomial = new QLineSeries(m_chart);
    m_redundant = new QLineSeries(m_chart);
    m_monteCarlo = new QScatterSeries(m_chart);
    m_monteCarlo->setMarkerSize(9);
    QPen redundantPen(QColor(0x1b, 0x5e, 0x20));
    redundantPen.setWidthF(3);
    m_redundant->setPen(redundantPen);
    m_monteCarlo->setColor(QColor(0xc6, 0x28, 0x28));

    m_axisX = new QLogValueAxis(m_chart);
    m_axisX->setBase(10);
    m_axisX->setLabelFormat(QStringLiteral("%g"));
    m_axisX->setMinorTickCount(-1);
    m_axisY = new QValueAxis(m_chart);
    m_axisY->setRange(0, 1);
    m_axisY->setLabelFormat(QStringLiteral("%.1f"));
    m_axisY->setTickCount(6);
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_poisson, m_murphy, m_seeds, m_negativeBinomial, m_redundant,
                                                          m_monteCarlo}) {
        m_chart->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    m_chart->legend()->setAlignment(Qt::AlignBottom);

    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    updateTitles();
}

void YieldPanel::updateTitles()
{
    if (m_curves)
        m_chart->setTitle(tr("Yield against defect density: classical models for %1 mm² without spares; "
                             "redundant wafer with %2 + %3 segments (%4 % spares)")
                              .arg(m_curves->areaMm2, 0, 'f', 0)
                              .arg(m_curves->segmentPrimaryCores)
                              .arg(m_curves->segmentSpareCores)
                              .arg(100.0 * m_curves->spareFraction, 0, 'f', 2));
    else
        m_chart->setTitle(tr("Yield against defect density"));
    m_axisX->setTitleText(tr("Defect density D0 (defects per mm²)"));
    m_axisY->setTitleText(tr("Yield"));
    m_poisson->setName(tr("Poisson"));
    m_murphy->setName(tr("Murphy"));
    m_seeds->setName(tr("Seeds"));
    m_negativeBinomial->setName(tr("Negative binomial α = %1").arg(m_curves ? m_curves->alpha : 0.0));
    m_redundant->setName(tr("Redundant wafer"));
    m_monteCarlo->setName(tr("Monte Carlo (remap)"));
}

void YieldPanel::setCurves(std::shared_ptr<const YieldCurves> curves)
{
    m_curves = std::move(curves);
    static const std::vector<double> none;
    const YieldCurves* c = m_curves.get();
    const auto& x = c ? c->defectsPerMm2 : none;
    QLineSeries* const models[] = {m_poisson, m_murphy, m_seeds, m_negativeBinomial};
    for (size_t m = 0; m < std::size(kModels); ++m)
        models[m]->replace(pointsOf(x, c ? c->*kModels[m].values : none));
    m_redundant->replace(pointsOf(x, c ? c->redundantWafer : none));
    QList<QPointF> mc;
    if (c) {
        for (const YieldMonteCarloPoint& p : c->monteCarlo)
            mc.append(QPointF(p.defectsPerMm2, p.yield));
    }
    m_monteCarlo->replace(mc);
    m_redundant->setVisible(c && !c->redundantWafer.empty());
    if (c && x.size() >= 2)
        m_axisX->setRange(x.front(), x.back());
    updateTitles();
}

ChartData YieldPanel::chartData() const
{
    ChartData d;
    d.name = QStringLiteral("yield_curves");
    d.columns = {QStringLiteral("d0_per_mm2")};
    for (const ModelCurve& m : kModels)
        d.columns << QString::fromLatin1(m.key);
    d.columns << QStringLiteral("redundant_wafer") << QStringLiteral("monte_carlo_yield")
              << QStringLiteral("monte_carlo_standard_error") << QStringLiteral("monte_carlo_usable_fraction");
    if (!m_curves)
        return d;
    const YieldCurves& c = *m_curves;
    for (size_t i = 0; i < c.defectsPerMm2.size(); ++i) {
        QVariantList row{c.defectsPerMm2[i]};
        for (const ModelCurve& m : kModels)
            row << (c.*m.values)[i];
        row << (i < c.redundantWafer.size() ? QVariant(c.redundantWafer[i]) : QVariant()) << QVariant() << QVariant()
            << QVariant();
        d.rows.append(row);
    }
    for (const YieldMonteCarloPoint& p : c.monteCarlo)
        d.rows.append(QVariantList{p.defectsPerMm2, QVariant(), QVariant(), QVariant(), QVariant(), QVariant(), p.yield,
                                   p.standardError, p.usableFraction});
    return d;
}

QImage YieldPanel::renderImage(QSize size) const
{
    QImage image = m_view->grab().toImage();
    if (size.isValid() && !size.isEmpty() && size != image.size())
        image = image.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    return image;
}

} // namespace ws::views
