#include "views/compare/comparisonpanel.h"

#include "views/charts/chartcard.h"
#include "views/charts/chartformat.h"
#include "views/compare/calibrationchart.h"
#include "views/compare/calibrationpanel.h"
#include "views/compare/comparisondrivers.h"
#include "views/compare/comparisoninputmodel.h"
#include "views/compare/comparisonsettingsbar.h"
#include "views/compare/concurrencychart.h"
#include "views/compare/costchart.h"
#include "views/compare/rangebarchart.h"
#include "views/compare/rooflinechart.h"
#include "views/compare/speculativepanel.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QShowEvent>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace ws::views {

namespace {
QString notesText(const Prediction& p)
{
    QStringList lines;
    for (const std::string& n : p.notes)
        lines << QStringLiteral("• ") + QString::fromStdString(n);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

ComparisonPanel::ComparisonPanel(QWidget* parent) : QWidget(parent)
{
    m_settings = new ComparisonSettingsBar;
    connect(m_settings, &ComparisonSettingsBar::settingsChanged, this, &ComparisonPanel::settingsChanged);

    m_speed = new RangeBarChart;
    m_ttft = new RangeBarChart;
    m_energy = new RangeBarChart;
    m_curves = new ConcurrencyChart;
    auto* speedCard = new ChartCard(m_speed);
    auto* ttftCard = new ChartCard(m_ttft);
    auto* energyCard = new ChartCard(m_energy);
    auto* curveCard = new ChartCard(m_curves);
    connectCard(
        speedCard, [this] { return m_speed->chartData(); }, tr("Tokens per second per user"));
    connectCard(
        ttftCard, [this] { return m_ttft->chartData(); }, tr("Time to first token"));
    connectCard(
        energyCard, [this] { return m_energy->chartData(); }, tr("Energy per token"));
    connectCard(
        curveCard, [this] { return m_curves->chartData(); }, tr("Throughput vs latency"));

    m_meaning = new QTableWidget(0, 7);
    m_meaning->verticalHeader()->hide();
    m_meaning->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_meaning->setSelectionMode(QAbstractItemView::NoSelection);
    // Every column as wide as its header and figures: a narrow panel scrolls the table sideways rather than cutting
    // a header to "…".
    m_meaning->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_meaningNote = new QLabel;
    m_meaningNote->setWordWrap(true);
    auto* meaningBox = new QWidget;
    auto* meaningLayout = new QVBoxLayout(meaningBox);
    meaningLayout->setContentsMargins(0, 0, 0, 0);
    auto* meaningTitle = new QLabel(tr("<b>What it means</b>"));
    meaningLayout->addWidget(meaningTitle);
    m_headline = new QLabel;
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_headline->setToolTip(tr("The fastest and slowest systems by tokens/s per user; figures from the table above"));
    meaningLayout->addWidget(m_meaning);
    meaningLayout->addWidget(m_headline, 1);
    meaningLayout->addWidget(m_meaningNote);
    fillMeaning(); // the columns, before any snapshot
    auto* meaningCard = new ChartCard(meaningBox);
    connectCard(
        meaningCard, [this] { return meaningData(); }, tr("What it means"));

    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setStyleSheet(QStringLiteral("color: #a04000;"));
    m_status->hide();

    auto* overview = new QWidget;
    auto* grid = new QGridLayout(overview);
    grid->setContentsMargins(4, 4, 4, 4);
    grid->setSpacing(6);
    grid->addWidget(speedCard, 0, 0);
    grid->addWidget(ttftCard, 0, 1);
    grid->addWidget(energyCard, 0, 2);
    grid->addWidget(curveCard, 1, 0);
    grid->addWidget(meaningCard, 1, 1, 1, 2);
    grid->addWidget(m_status, 2, 0, 1, 3);
    grid->setRowStretch(0, 5);
    grid->setRowStretch(1, 5);

    m_calibration = new CalibrationPanel;
    connect(m_calibration, &CalibrationPanel::fitRequested, this, &ComparisonPanel::fitProfileRequested);
    connect(m_calibration, &CalibrationPanel::addMeasurementsRequested, this,
            &ComparisonPanel::addMeasurementsRequested);
    connectCard(
        m_calibration->chartCard(), [this] { return m_calibration->chart()->chartData(); },
        tr("Predicted vs measured"));
    // CalibrationChart is only forward-declared above; its data comes through the panel.

    m_inputs = new ComparisonInputModel(this);
    m_inputView = new QTableView;
    m_inputView->setModel(m_inputs);
    m_inputView->verticalHeader()->hide();
    m_inputView->horizontalHeader()->setStretchLastSection(true);
    m_inputView->setAlternatingRowColors(true);
    m_inputView->setWordWrap(false);
    auto* inputCard = new ChartCard(m_inputView);
    connectCard(
        inputCard, [this] { return inputData(); }, tr("Inputs and sources"));

    auto* bounds = new QSplitter(Qt::Vertical);
    bounds->addWidget(new ChartCard(m_drivers = new ComparisonDrivers));
    bounds->addWidget(new ChartCard(m_roofline = new RooflineChart));
    connectCard(
        qobject_cast<ChartCard*>(bounds->widget(0)), [this] { return m_drivers->chartData(); }, tr("Range drivers"));
    connectCard(
        qobject_cast<ChartCard*>(bounds->widget(1)), [this] { return m_roofline->chartData(); }, tr("Roofline"));
    m_tabs = new QTabWidget;
    m_tabs->addTab(overview, tr("Comparison"));
    m_tabs->addTab(bounds, tr("Ranges and ceilings"));
    auto* costCard = new ChartCard(m_cost = new CostChart);
    connectCard(
        costCard, [this] { return m_cost->chartData(); }, tr("Cost per million tokens"));
    connect(m_cost, &CostChart::hourlyCostChanged, this, [this](const QString& hardwareId, double usd) {
        if (!m_snapshot)
            return;
        ComparisonSettings changed = m_snapshot->settings;
        if (usd > 0)
            changed.hourlyUsdPerDevice.insert(hardwareId, usd);
        else
            changed.hourlyUsdPerDevice.remove(hardwareId);
        if (!(changed == m_snapshot->settings))
            emit settingsChanged(changed);
    });
    m_tabs->addTab(costCard, tr("Cost"));
    m_speculative = new SpeculativePanel;
    connect(m_speculative, &SpeculativePanel::choiceChanged, this,
            [this](const QString& hardwareId, const SpeculativeChoice& choice) {
                if (!m_snapshot)
                    return;
                ComparisonSettings changed = m_snapshot->settings;
                changed.speculative.insert(hardwareId, choice);
                if (!(changed == m_snapshot->settings))
                    emit settingsChanged(changed);
            });
    auto* specScroll = new QScrollArea;
    specScroll->setWidgetResizable(true);
    specScroll->setWidget(m_speculative);
    m_tabs->addTab(specScroll, tr("Speculative decoding"));
    m_tabs->addTab(m_calibration, tr("Calibration"));
    m_tabs->addTab(inputCard, tr("Inputs and sources"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // One row of settings, wider than a laptop screen: it scrolls sideways instead of widening the panel.
    auto* settingsRow = new QScrollArea;
    settingsRow->setFrameShape(QFrame::NoFrame);
    settingsRow->setWidgetResizable(true);
    settingsRow->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    settingsRow->setWidget(m_settings);
    settingsRow->setFixedHeight(m_settings->sizeHint().height() +
                                settingsRow->horizontalScrollBar()->sizeHint().height());
    layout->addWidget(settingsRow);
    layout->addWidget(m_tabs, 1);
}

void ComparisonPanel::connectCard(ChartCard* card, const std::function<ChartData()>& data, const QString& title)
{
    connect(card, &ChartCard::exportRequested, this,
            [this, card, data, title] { emit exportRequested(card->content(), data(), title); });
}

std::pair<double, double> ComparisonPanel::readingTokensPerSecond(const ReadingSpeed& r, double tpcLow, double tpcHigh)
{
    return {r.charactersPerMinuteLow / 60.0 * tpcLow, r.charactersPerMinuteHigh / 60.0 * tpcHigh};
}

void ComparisonPanel::setSnapshot(std::shared_ptr<const ComparisonSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    m_stale = window()->isVisible() && !isVisible();
    if (!m_stale)
        showSnapshot();
}

void ComparisonPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale) {
        m_stale = false;
        showSnapshot();
    }
}

void ComparisonPanel::showSnapshot()
{
    if (!m_snapshot) {
        m_speed->setBars({}, {}, {}, {}, {});
        m_ttft->setBars({}, {}, {}, {}, {});
        m_energy->setBars({}, {}, {}, {}, {});
        m_curves->setCurves({});
        m_cost->setCurves({});
        m_drivers->setSystems({});
        m_roofline->setSystems({});
        fillMeaning();
        m_inputs->setInputs({});
        m_calibration->setProfiles({}, {});
        return;
    }
    const ComparisonSnapshot& s = *m_snapshot;
    m_settings->setSettings(s.settings, s.modelIds, s.gpuProfileIds, s.modelNames);
    fillBars();
    fillMeaning();
    fillCost();
    m_speculative->setSnapshot(s);
    m_drivers->setSystems(s.systems);
    m_roofline->setSystems(s.systems);
    m_inputs->setInputs(s.inputs);
    m_inputView->resizeColumnsToContents();
    m_calibration->setProfiles(s.profiles, s.userProfileIds);

    QStringList errors;
    for (const ComparisonSystem& sys : s.systems)
        if (!sys.ok)
            errors << tr("%1: %2").arg(sys.label, sys.error);
    m_status->setText(errors.join(QLatin1Char('\n')));
    m_status->setVisible(!errors.isEmpty());
}

void ComparisonPanel::fillBars()
{
    const ComparisonSnapshot& s = *m_snapshot;
    std::vector<RangeBar> speed, ttft, energy;
    std::vector<ConcurrencyCurve> curves;
    for (const ComparisonSystem& sys : s.systems) {
        if (!sys.ok)
            continue;
        const Prediction& p = sys.prediction;
        const QString basis = tr("%1 on %2: engine prediction (%3 devices, concurrency %4, profile %5).")
                                  .arg(s.modelName, sys.label)
                                  .arg(p.devices)
                                  .arg(p.concurrency)
                                  .arg(QString::fromStdString(p.profile));
        const QString notes = notesText(p);

        const QString name = sys.name.isEmpty() ? sys.label : sys.name;
        const QString count = p.devices > 1 ? tr("×%1").arg(p.devices) : QString();
        RangeBar b{sys.label,
                   name,
                   count,
                   sys.color,
                   true,
                   p.tokensPerSecondPerUser,
                   p.tokensPerSecondPerUserRange.low,
                   p.tokensPerSecondPerUserRange.high,
                   {}};
        b.tooltip =
            tr("%1 tokens/s per user (range %2 – %3)\n%4\n%5")
                .arg(formatSignificant(b.value), formatSignificant(b.low), formatSignificant(b.high), basis, notes);
        ConcurrencyCurve curve{name, sys.color, p.concurrencyCurve, p.concurrency, p.maxConcurrency, {}};
        for (const MeasuredPoint& m : sys.measured) {
            const double perUser = m.tokensPerSecondPerUser();
            const QString tip = measuredPointTip(m, perUser, tr("tokens/s per user"));
            if (m.concurrency == p.concurrency)
                b.measured.push_back({perUser, tip});
            curve.measured.push_back({m.concurrency, perUser, tip});
        }
        speed.push_back(b);

        RangeBar t{sys.label,
                   name,
                   count,
                   sys.color,
                   true,
                   p.ttftSeconds * 1000,
                   p.ttftRange.low * 1000,
                   p.ttftRange.high * 1000,
                   {}};
        t.tooltip = tr("Time to first token %1 ms (range %2 – %3) for a %4-token prompt\n%5")
                        .arg(formatSignificant(t.value), formatSignificant(t.low), formatSignificant(t.high))
                        .arg(s.settings.workload.promptTokens)
                        .arg(basis);
        ttft.push_back(t);

        RangeBar e{sys.label, name, count, sys.color, p.joulesPerToken > 0, p.joulesPerToken, 0, 0, {}};
        if (e.known) {
            // Power is fixed, so energy per token scales inversely with the speed range.
            const double v = p.tokensPerSecondPerUser;
            const auto& r = p.tokensPerSecondPerUserRange;
            e.low = r.high > 0 ? e.value * v / r.high : e.value;
            e.high = r.low > 0 ? e.value * v / r.low : e.value;
            e.tooltip = tr("%1 J per token = %2 W for all %3 devices / %4 tokens/s in all\n"
                           "Range from the speed range at the same power. Power: hardware preset (see Inputs).\n%5")
                            .arg(formatSignificant(e.value), formatSignificant(p.powerWatts))
                            .arg(p.devices)
                            .arg(formatSignificant(p.aggregateTokensPerSecond), basis);
        } else {
            e.tooltip = tr("No published power figure for this hardware preset, so no energy per token.");
        }
        energy.push_back(e);
        curves.push_back(curve);
    }
    // The axis says the unit; "per user" is the title's (the longer axis title was cut at 1366 × 768).
    m_speed->setBars(tr("Decode speed per user (%1)").arg(s.modelName), tr("tokens/s"),
                     QStringLiteral("tokens_per_second_per_user"), QStringLiteral("tokens_per_second_per_user"), speed);
    m_ttft->setBars(tr("Time to first token (%1-token prompt)").arg(s.settings.workload.promptTokens), tr("ms"),
                    QStringLiteral("time_to_first_token"), QStringLiteral("ttft_ms"), ttft);
    m_energy->setBars(tr("Energy per token (concurrency %1)").arg(s.settings.workload.concurrency), tr("J/token"),
                      QStringLiteral("energy_per_token"), QStringLiteral("joules_per_token"), energy);
    m_curves->setCurves(curves);
}

void ComparisonPanel::fillCost()
{
    std::vector<CostCurve> curves;
    for (const ComparisonSystem& sys : m_snapshot->systems) {
        if (!sys.ok || sys.costCurve.empty())
            continue;
        const Prediction& p = sys.prediction;
        const int devices = std::max(1, p.devices);
        curves.push_back({.label = sys.label,
                          .hardwareId = sys.hardwareId,
                          .color = sys.color,
                          .points = sys.costCurve,
                          .concurrency = p.concurrency,
                          .devices = devices,
                          .hourlyUsd = p.cost.hourlyUsd,
                          .hourlySource = QString::fromStdString(p.cost.source),
                          .hourlyUsdPerDevice = p.cost.hourlyUsd / devices,
                          .presetHourlyUsdPerDevice = sys.presetHourlyUsdPerDevice,
                          .userHourly = m_snapshot->settings.hourlyUsdPerDevice.contains(sys.hardwareId),
                          .apiPrices = sys.apiPrices,
                          .atScale = sys.costAtScale});
    }
    m_cost->setCurves(curves);
}

ChartData ComparisonPanel::inputData() const
{
    return m_inputs->table().exported();
}

} // namespace ws::views
