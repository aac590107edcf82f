#include "views/defectspanel.h"

#include "views/yieldpanel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace ws::views {

namespace {

const char* const kRowKeys[] = {"dead", "spares", "shifted", "unrepairable", "usable", "lost",
                                "stretch",  "before", "after", "change", "status"};

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

DefectsPanel::DefectsPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("defectsPanel"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_tabs = new QTabWidget(this);
    outer->addWidget(m_tabs);

    m_toolsPage = new QWidget(m_tabs);
    auto* page = new QVBoxLayout(m_toolsPage);

    // Injection tools.
    m_injectBox = new QGroupBox(m_toolsPage);
    m_injectForm = new QFormLayout(m_injectBox);
    m_density = new QDoubleSpinBox(m_injectBox);
    m_density->setObjectName(QStringLiteral("density"));
    m_density->setDecimals(5);
    m_density->setRange(0.0, 10.0);
    m_density->setSingleStep(0.0005);
    m_density->setValue(0.001);
    m_alpha = new QDoubleSpinBox(m_injectBox);
    m_alpha->setObjectName(QStringLiteral("alpha"));
    m_alpha->setDecimals(2);
    m_alpha->setRange(0.05, 100.0);
    m_alpha->setValue(2.0);
    m_seed = new QSpinBox(m_injectBox);
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setRange(1, 1000000000);
    m_seed->setValue(1);
    auto* randomRow = new QHBoxLayout;
    m_poisson = new QPushButton(m_injectBox);
    m_poisson->setObjectName(QStringLiteral("poisson"));
    m_clustered = new QPushButton(m_injectBox);
    m_clustered->setObjectName(QStringLiteral("clustered"));
    randomRow->addWidget(m_poisson);
    randomRow->addWidget(m_clustered);
    auto* dieRow = new QHBoxLayout;
    m_dieX = new QSpinBox(m_injectBox);
    m_dieX->setObjectName(QStringLiteral("dieX"));
    m_dieY = new QSpinBox(m_injectBox);
    m_dieY->setObjectName(QStringLiteral("dieY"));
    m_dieX->setRange(1, 1);
    m_dieY->setRange(1, 1);
    m_die = new QPushButton(m_injectBox);
    m_die->setObjectName(QStringLiteral("killDie"));
    dieRow->addWidget(m_dieX);
    dieRow->addWidget(m_dieY);
    dieRow->addWidget(m_die, 1);
    auto* brushRow = new QHBoxLayout;
    m_brush = new QCheckBox(m_injectBox);
    m_brush->setObjectName(QStringLiteral("brush"));
    m_brushMode = new QComboBox(m_injectBox);
    m_brushMode->setObjectName(QStringLiteral("brushMode"));
    m_brushMode->addItems({QString(), QString()});
    brushRow->addWidget(m_brush);
    brushRow->addWidget(m_brushMode, 1);
    auto* historyRow = new QHBoxLayout;
    m_undo = new QAction(this);
    m_undo->setShortcut(QKeySequence::Undo);
    m_undo->setShortcutContext(Qt::WindowShortcut);
    m_redo = new QAction(this);
    m_redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
    m_redo->setShortcutContext(Qt::WindowShortcut);
    addAction(m_undo);
    addAction(m_redo);
    m_undoButton = new QToolButton(m_injectBox);
    m_undoButton->setDefaultAction(m_undo);
    m_redoButton = new QToolButton(m_injectBox);
    m_redoButton->setDefaultAction(m_redo);
    m_clear = new QPushButton(m_injectBox);
    m_clear->setObjectName(QStringLiteral("clear"));
    historyRow->addWidget(m_undoButton);
    historyRow->addWidget(m_redoButton);
    historyRow->addStretch(1);
    historyRow->addWidget(m_clear);
    m_injectForm->addRow(QStringLiteral("d0"), m_density);
    m_injectForm->addRow(QStringLiteral("alpha"), m_alpha);
    m_injectForm->addRow(QStringLiteral("seed"), m_seed);
    m_injectForm->addRow(randomRow);
    m_dieLabel = new QLabel(m_injectBox);
    m_injectForm->addRow(m_dieLabel, dieRow);
    m_injectForm->addRow(brushRow);
    m_injectForm->addRow(historyRow);
    page->addWidget(m_injectBox);

    // Spare scheme.
    m_schemeBox = new QGroupBox(m_toolsPage);
    m_schemeForm = new QFormLayout(m_schemeBox);
    m_scheme = new QComboBox(m_schemeBox);
    m_scheme->setObjectName(QStringLiteral("scheme"));
    m_scheme->addItems({QString(), QString()});
    m_dieSpares = new QSpinBox(m_schemeBox);
    m_dieSpares->setObjectName(QStringLiteral("dieSpares"));
    m_dieSpares->setRange(0, 64);
    m_dieSpares->setValue(2);
    m_dieSpares->setEnabled(false);
    m_schemeForm->addRow(QStringLiteral("scheme"), m_scheme);
    m_schemeForm->addRow(QStringLiteral("spares"), m_dieSpares);
    page->addWidget(m_schemeBox);

    // What the remap did and what it costs.
    m_summaryBox = new QGroupBox(m_toolsPage);
    m_summaryForm = new QFormLayout(m_summaryBox);
    for (const char* key : kRowKeys)
        addValue(m_summaryForm, QString::fromLatin1(key));
    page->addWidget(m_summaryBox);
    page->addStretch(1);

    m_yield = new YieldPanel(m_tabs);
    m_tabs->addTab(m_toolsPage, QString());
    m_tabs->addTab(m_yield, QString());

    connect(m_poisson, &QPushButton::clicked, this,
            [this] { emit poissonRequested(m_density->value(), takeSeed()); });
    connect(m_clustered, &QPushButton::clicked, this,
            [this] { emit clusteredRequested(m_density->value(), m_alpha->value(), takeSeed()); });
    connect(m_die, &QPushButton::clicked, this, [this] { emit dieRequested(m_dieX->value() - 1, m_dieY->value() - 1); });
    connect(m_clear, &QPushButton::clicked, this, &DefectsPanel::clearRequested);
    connect(m_undo, &QAction::triggered, this, &DefectsPanel::undoRequested);
    connect(m_redo, &QAction::triggered, this, &DefectsPanel::redoRequested);
    auto brush = [this] { emit brushChanged(isBrushActive(), brushKills()); };
    connect(m_brush, &QCheckBox::toggled, this, brush);
    connect(m_brushMode, &QComboBox::currentIndexChanged, this, brush);
    auto scheme = [this] {
        m_dieSpares->setEnabled(m_scheme->currentIndex() == DieRowColumn);
        emit schemeRequested(m_scheme->currentIndex(), m_dieSpares->value());
    };
    connect(m_scheme, &QComboBox::currentIndexChanged, this, scheme);
    connect(m_dieSpares, &QSpinBox::valueChanged, this, [this, scheme] {
        if (m_scheme->currentIndex() == DieRowColumn)
            scheme();
    });
    setHistory(false, false);
    retranslate();
}

QLabel* DefectsPanel::addValue(QFormLayout* form, const QString& key)
{
    auto* name = new QLabel(this);
    auto* value = new QLabel(QStringLiteral("–"), this);
    value->setObjectName(QStringLiteral("value_") + key);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    form->addRow(name, value);
    m_names.insert(key, name);
    m_values.insert(key, value);
    return value;
}

quint64 DefectsPanel::takeSeed()
{
    // Each draw uses the seed shown, then moves on, so the next click adds different cores.
    const quint64 seed = quint64(m_seed->value());
    if (m_seed->value() < m_seed->maximum())
        m_seed->setValue(m_seed->value() + 1);
    return seed;
}

void DefectsPanel::setWafer(const QString& name, double coreAreaMm2, int diesX, int diesY, int segmentPrimary,
                            int segmentSpare)
{
    m_waferName = name;
    m_coreAreaMm2 = coreAreaMm2;
    m_segmentPrimary = segmentPrimary;
    m_segmentSpare = segmentSpare;
    m_dieX->setRange(1, std::max(1, diesX));
    m_dieY->setRange(1, std::max(1, diesY));
    retranslate();
}

void DefectsPanel::setNumbers(const DefectsPanelNumbers& numbers)
{
    m_numbers = numbers;
    showNumbers();
}

void DefectsPanel::setHistory(bool canUndo, bool canRedo)
{
    m_undo->setEnabled(canUndo);
    m_redo->setEnabled(canRedo);
}

void DefectsPanel::setYieldCurves(std::shared_ptr<const YieldCurves> curves)
{
    m_yield->setCurves(std::move(curves));
}

bool DefectsPanel::isBrushActive() const
{
    return m_brush->isChecked();
}

bool DefectsPanel::brushKills() const
{
    return m_brushMode->currentIndex() == 0;
}

QString DefectsPanel::valueText(const QString& key) const
{
    const QLabel* label = m_values.value(key);
    return label ? label->text() : QString();
}

void DefectsPanel::setDensity(double defectsPerMm2)
{
    m_density->setValue(defectsPerMm2);
}

void DefectsPanel::setSeed(quint64 seed)
{
    m_seed->setValue(int(std::min<quint64>(seed, quint64(m_seed->maximum()))));
}

void DefectsPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void DefectsPanel::showNumbers()
{
    const QLocale locale;
    const DefectsPanelNumbers& n = m_numbers;
    const DefectSummary& s = n.summary;
    auto set = [this](const char* key, const QString& text) { m_values.value(QString::fromLatin1(key))->setText(text); };
    if (!n.valid) {
        for (const char* key : kRowKeys)
            set(key, QStringLiteral("–"));
        set("status", n.busy ? tr("Computing the remap…") : n.error);
        return;
    }
    auto count = [&locale](int64_t v) { return locale.toString(qlonglong(v)); };
    set("dead", count(s.deadCores));
    set("spares", count(s.sparesUsed));
    set("shifted", count(s.shiftedCores));
    set("unrepairable", count(s.unrepairableSegments));
    set("usable", tr("%1 (%2 × %3)").arg(count(s.usableCores), locale.toString(n.usableCols),
                                          locale.toString(n.usableRows)));
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
                             "(facts wafer-mapping §3.4, §6.6), with core area a_c = %1 mm² from the %2 preset.")
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
    m_brushMode->setItemText(0, tr("Kill cores"));
    m_brushMode->setItemText(1, tr("Revive cores"));
    m_undo->setText(tr("Undo"));
    m_undo->setToolTip(tr("Undo the last defect edit (Ctrl+Z)"));
    m_redo->setText(tr("Redo"));
    m_redo->setToolTip(tr("Redo the edit undone last (Ctrl+Shift+Z)"));
    m_clear->setText(tr("Clear"));
    m_clear->setToolTip(tr("Marks every core healthy (can be undone)."));

    static_cast<QLabel*>(m_schemeForm->labelForField(m_scheme))->setText(tr("Scheme"));
    m_scheme->setItemText(0, tr("Row-shift segments"));
    m_scheme->setItemText(1, tr("Die spare rows/columns"));
    m_scheme->setToolTip(
        tr("Row-shift: each physical row is cut into segments of %1 primary + %2 spare cores (preset); a row's "
           "logical cores skip dead ones (facts wafer-mapping §3.3). Die spare rows/columns: each die retires whole "
           "rows and columns holding dead cores (§3.2), for comparison. Changing the scheme starts an empty map.")
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
        {"shifted", tr("Shifted cores"),
         tr("Logical cores away from their nominal physical position (engine remap).")},
        {"unrepairable", tr("Unrepairable"),
         tr("Row segments (or dies) with more dead cores than spares; their rows leave the logical mesh.")},
        {"usable", tr("Usable cores"), tr("The rectangle placement may use after the remap (reserved border "
                                          "excluded).")},
        {"lost", tr("Capacity lost"), tr("Usable cores without defects minus usable cores now.")},
        {"stretch", tr("Hop stretch S_max"),
         tr("Worst line stretch over the placement's layer regions: hops(link) = 1 + skipped + δ (facts §6.6 "
            "option B).")},
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
