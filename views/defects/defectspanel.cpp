#include "views/defects/defectspanel.h"

#include "views/charts/chartcard.h"
#include "views/defects/yieldpanel.h"

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

const char* const kRowKeys[] = {"dead",    "spares", "shifted", "unrepairable", "usable", "lost",
                                "stretch", "before", "after",   "change",       "status"};

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
    auto* yieldCard = new ChartCard(m_yield, m_tabs);
    m_tabs->addTab(m_toolsPage, QString());
    m_tabs->addTab(yieldCard, QString());
    connect(yieldCard, &ChartCard::exportRequested, this,
            [this] { emit exportRequested(m_yield, m_yield->chartData(), m_tabs->tabText(1)); });

    connect(m_poisson, &QPushButton::clicked, this, [this] { emit poissonRequested(m_density->value(), takeSeed()); });
    connect(m_clustered, &QPushButton::clicked, this,
            [this] { emit clusteredRequested(m_density->value(), m_alpha->value(), takeSeed()); });
    connect(m_die, &QPushButton::clicked, this,
            [this] { emit dieRequested(m_dieX->value() - 1, m_dieY->value() - 1); });
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

} // namespace ws::views
