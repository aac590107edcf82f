// DefectsPanel's texts: the remap's numbers (showNumbers) and every label and tooltip (retranslate).
#include "views/defects/defectspanel.h"
#include "views/widgets/comboitems.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QToolButton>

#include <cmath>
#include <utility>

namespace ws::views {

namespace {

QString seconds(double s)
{
    const QLocale locale;
    if (s <= 0)
        return QStringLiteral("–");
    if (s < 1e-3)
        return QCoreApplication::translate("ws::views::DefectsPanel", "%1 µs").arg(locale.toString(s * 1e6, 'f', 1));
    return QCoreApplication::translate("ws::views::DefectsPanel", "%1 ms").arg(locale.toString(s * 1e3, 'f', 3));
}

} // namespace

void DefectsPanel::showNumbers()
{
    const QLocale locale;
    const DefectsPanelNumbers& n = m_numbers;
    const DefectSummary& s = n.summary;
    auto set = [this](const char* key, const QString& text) {
        m_values.value(QString::fromLatin1(key))->setText(text);
    };
    if (!n.valid) {
        for (QLabel* label : std::as_const(m_values))
            label->setText(QStringLiteral("–"));
        set("status", n.busy ? tr("Computing the remap…") : n.error);
        return;
    }
    auto count = [&locale](int64_t v) { return locale.toString(qlonglong(v)); };
    set("dead", count(s.deadCores));
    set("spares", count(s.sparesUsed));
    set("shifted", count(s.shiftedCores));
    set("unrepairable", count(s.unrepairableSegments));
    set("usable",
        tr("%1 (%2 × %3)").arg(count(s.usableCores), locale.toString(n.usableCols), locale.toString(n.usableRows)));
    const double lostShare =
        s.nominalUsableCores > 0 ? 100.0 * double(s.capacityLostCores) / double(s.nominalUsableCores) : 0.0;
    set("lost", tr("%1 cores (%2%)").arg(count(s.capacityLostCores), locale.toString(lostShare, 'f', 3)));
    set("stretch", locale.toString(n.hopStretch, 'f', 4));
    auto onWafers = [this](double s, int wafers) {
        if (s <= 0 || wafers <= 0)
            return seconds(s);
        return wafers == 1 ? tr("%1 on 1 wafer").arg(seconds(s))
                           : tr("%1 on %2 wafers").arg(seconds(s), QLocale().toString(wafers));
    };
    set("before", onWafers(n.secondsPerTokenBefore, n.devicesBefore));
    set("after", onWafers(n.secondsPerTokenAfter, n.devicesAfter));
    if (n.secondsPerTokenBefore > 0 && n.secondsPerTokenAfter > 0) {
        const double delta = n.secondsPerTokenAfter - n.secondsPerTokenBefore;
        const QString sign = delta > 0 ? QStringLiteral("+") : delta < 0 ? QStringLiteral("−") : QString();
        set("change", tr("%1%2 (%1%3%)")
                          .arg(sign, delta == 0 ? QStringLiteral("0") : seconds(std::abs(delta)),
                               locale.toString(std::abs(100.0 * delta / n.secondsPerTokenBefore), 'f', 3)));
    } else {
        set("change", QStringLiteral("–"));
    }
    QStringList status;
    if (n.busy)
        status << tr("Computing the remap…");
    if (!n.error.isEmpty())
        status << n.error;
    if (!n.predictionError.isEmpty())
        status << tr("No prediction: %1").arg(n.predictionError);
    set("status", status.join(QLatin1Char('\n')));
}

void DefectsPanel::retranslate()
{
    const QLocale locale;
    m_tabs->setTabText(0, tr("Defects"));
    m_tabs->setTabText(1, tr("Yield"));
    m_injectBox->setTitle(tr("Inject"));
    m_schemeBox->setTitle(tr("Redundancy"));
    m_summaryBox->setTitle(tr("Remap"));
    const QString area = m_coreAreaMm2 > 0 ? locale.toString(m_coreAreaMm2, 'g', 4) : QStringLiteral("?");
    const QString wafer = m_waferName.isEmpty() ? tr("the hardware preset") : m_waferName;
    static_cast<QLabel*>(m_injectForm->labelForField(m_density))->setText(tr("D0 (defects/mm²)"));
    m_density->setToolTip(tr("Defect density D0. Each core dies with p = 1 − exp(−D0 · a_c), the Poisson model "
                             "([Yield-models] in docs/sources.md), with core area a_c = %1 mm² from the %2 preset.")
                              .arg(area, wafer));
    static_cast<QLabel*>(m_injectForm->labelForField(m_alpha))->setText(tr("Cluster α"));
    m_alpha->setToolTip(tr("Negative-binomial clustering: each die's density is drawn from Gamma(α, D0/α), then "
                           "Poisson as above. Smaller α clusters more."));
    static_cast<QLabel*>(m_injectForm->labelForField(m_seed))->setText(tr("Seed"));
    m_seed->setToolTip(tr("Random draws are repeatable: the same seed kills the same cores. Each draw moves the "
                          "seed on by one."));
    m_poisson->setText(tr("Random (Poisson)"));
    m_poisson->setToolTip(m_density->toolTip());
    m_clustered->setText(tr("Clustered"));
    m_clustered->setToolTip(m_alpha->toolTip());
    m_dieLabel->setText(tr("Die (column, row)"));
    m_dieX->setToolTip(tr("Die column, 1 to the preset's dies across"));
    m_dieY->setToolTip(tr("Die row, 1 to the preset's dies down"));
    m_die->setText(tr("Kill die"));
    m_die->setToolTip(tr("Marks every core of the chosen reticle die dead."));
    m_brush->setText(tr("Brush"));
    m_brush->setToolTip(tr("Click or drag on the heatmap to mark cores dead or healthy (the heatmap switches to "
                           "the Defects layer). Dragging then paints instead of panning."));
    setItemTexts(m_brushMode, {tr("Kill cores"), tr("Revive cores")});
    m_undo->setText(tr("Undo"));
    m_undo->setToolTip(tr("Undo the last defect edit (Ctrl+Z)"));
    m_redo->setText(tr("Redo"));
    m_redo->setToolTip(tr("Redo the edit undone last (Ctrl+Shift+Z)"));
    m_clear->setText(tr("Clear"));
    m_clear->setToolTip(tr("Marks every core healthy (can be undone)."));

    static_cast<QLabel*>(m_schemeForm->labelForField(m_scheme))->setText(tr("Scheme"));
    setItemTexts(m_scheme, {tr("Row-shift segments"), tr("Die spare rows/columns")});
    m_scheme->setToolTip(
        tr("Row-shift: each physical row is cut into segments of %1 primary + %2 spare cores (preset); a row's "
           "logical cores skip dead ones (after Cerebras' patent US 11,328,208, [Cerebras-patent] in docs/sources.md). "
           "Die spare rows/columns: each die retires whole rows and columns holding dead cores "
           "([Spare-rows-columns]), for comparison. Changing the scheme starts an empty map.")
            .arg(m_segmentPrimary)
            .arg(m_segmentSpare));
    static_cast<QLabel*>(m_schemeForm->labelForField(m_dieSpares))->setText(tr("Spares per die"));
    m_dieSpares->setToolTip(tr("Spare rows and spare columns per die for the die scheme. A parameter: no vendor "
                               "publishes it."));

    struct Row
    {
        const char* key;
        QString name;
        QString tip;
    };
    const Row rows[] = {
        {"dead", tr("Dead cores"), tr("Physical cores marked dead (spares included), from the defect map.")},
        {"spares", tr("Spares used"), tr("Spare-position cores that now host a logical core (engine remap).")},
        {"shifted", tr("Shifted cores"), tr("Logical cores away from their nominal physical position (engine remap).")},
        {"unrepairable", tr("Unrepairable"),
         tr("Row segments (or dies) with more dead cores than spares; their rows leave the logical mesh.")},
        {"usable", tr("Usable cores"),
         tr("The rectangle placement may use after the remap (reserved border "
            "excluded).")},
        {"lost", tr("Capacity lost"), tr("Usable cores without defects minus usable cores now.")},
        {"stretch", tr("Hop stretch S_max"),
         tr("Worst line stretch over the placement's layer regions: hops(link) = 1 + skipped + δ (WaferScope's "
            "remap-cost model, option B: [WaferScope-model] in docs/sources.md).")},
        {"before", tr("Time per token, no defects"),
         tr("The wafer predictor for this model, precision and context on the fewest wafers that hold it.")},
        {"after", tr("Time per token, remapped"),
         tr("The same prediction on the remapped usable mesh, every hop costing S_max hops, on the fewest "
            "wafers that still hold the model (more wafers can make it faster).")},
        {"change", tr("Change"), tr("After minus before.")},
        {"status", tr("Status"), QString()},
    };
    for (const Row& r : rows) {
        const QString key = QString::fromLatin1(r.key);
        m_names.value(key)->setText(r.name);
        m_names.value(key)->setToolTip(r.tip);
        m_values.value(key)->setToolTip(r.tip);
    }
    showNumbers();
}

} // namespace ws::views
