#include "views/comparisonpanel.h"

#include "views/calibrationchart.h"
#include "views/calibrationpanel.h"
#include "views/chartcard.h"
#include "views/chartformat.h"
#include "views/comparisondrivers.h"
#include "views/comparisoninputmodel.h"
#include "views/comparisonsettingsbar.h"
#include "views/concurrencychart.h"
#include "views/rangebarchart.h"
#include "views/rooflinechart.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace ws::views {

namespace {
QString duration(double seconds)
{
    if (!(seconds > 0))
        return QStringLiteral("–");
    if (seconds < 1)
        return ComparisonPanel::tr("%1 ms").arg(formatSignificant(seconds * 1000));
    if (seconds < 120)
        return ComparisonPanel::tr("%1 s").arg(formatSignificant(seconds));
    return ComparisonPanel::tr("%1 min").arg(formatSignificant(seconds / 60));
}

QString durationRange(double lo, double hi)
{
    return ComparisonPanel::tr("%1 – %2").arg(duration(lo), duration(hi));
}

QString notesText(const Prediction& p)
{
    QStringList lines;
    for (const std::string& n : p.notes)
        lines << QStringLiteral("• ") + QString::fromStdString(n);
    return lines.join(QLatin1Char('\n'));
}

// The table as tall as its rows, so the space below goes to the headline.
void fitTableHeight(QTableWidget* t)
{
    int h = t->horizontalHeader()->height() + 2 * t->frameWidth();
    for (int r = 0; r < t->rowCount(); ++r)
        h += t->rowHeight(r);
    t->setMaximumHeight(h + 2);
    t->setMinimumHeight(h + 2);
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

QTableWidgetItem* cell(const QString& text, const QString& tip)
{
    auto* it = new QTableWidgetItem(text);
    it->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    it->setToolTip(tip);
    return it;
}
} // namespace

ComparisonPanel::ComparisonPanel(QWidget* parent)
    : QWidget(parent)
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
    connectCard(speedCard, [this] { return m_speed->chartData(); }, tr("Tokens per second per user"));
    connectCard(ttftCard, [this] { return m_ttft->chartData(); }, tr("Time to first token"));
    connectCard(energyCard, [this] { return m_energy->chartData(); }, tr("Energy per token"));
    connectCard(curveCard, [this] { return m_curves->chartData(); }, tr("Throughput vs latency"));

    m_meaning = new QTableWidget(0, 6);
    m_meaning->verticalHeader()->hide();
    m_meaning->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_meaning->setSelectionMode(QAbstractItemView::NoSelection);
    m_meaning->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_meaning->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
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
    auto* meaningCard = new ChartCard(meaningBox);
    connectCard(meaningCard, [this] { return meaningData(); }, tr("What it means"));

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
    connectCard(m_calibration->chartCard(), [this] { return m_calibration->chart()->chartData(); },
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
    connectCard(inputCard, [this] { return inputData(); }, tr("Inputs and sources"));

    auto* bounds = new QSplitter(Qt::Vertical);
    bounds->addWidget(new ChartCard(m_drivers = new ComparisonDrivers));
    bounds->addWidget(new ChartCard(m_roofline = new RooflineChart));
    connectCard(qobject_cast<ChartCard*>(bounds->widget(0)), [this] { return m_drivers->chartData(); }, tr("Range drivers"));
    connectCard(qobject_cast<ChartCard*>(bounds->widget(1)), [this] { return m_roofline->chartData(); }, tr("Roofline"));
    m_tabs = new QTabWidget;
    m_tabs->addTab(overview, tr("Comparison"));
    m_tabs->addTab(bounds, tr("Ranges and ceilings"));
    m_tabs->addTab(m_calibration, tr("Calibration"));
    m_tabs->addTab(inputCard, tr("Inputs and sources"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_settings);
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
    if (!m_snapshot) {
        m_speed->setBars({}, {}, {}, {}, {});
        m_ttft->setBars({}, {}, {}, {}, {});
        m_energy->setBars({}, {}, {}, {}, {});
        m_curves->setCurves({});
        m_drivers->setSystems({});
        m_roofline->setSystems({});
        m_meaning->setRowCount(0);
        m_inputs->setInputs({});
        m_calibration->setProfiles({}, {});
        return;
    }
    const ComparisonSnapshot& s = *m_snapshot;
    m_settings->setSettings(s.settings, s.modelIds, s.gpuProfileIds);
    fillBars();
    fillMeaning();
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
        RangeBar b{sys.label, name, count, sys.color, true, p.tokensPerSecondPerUser, p.tokensPerSecondPerUserRange.low,
                   p.tokensPerSecondPerUserRange.high, {}};
        b.tooltip = tr("%1 tokens/s per user (range %2 – %3)\n%4\n%5")
                        .arg(formatSignificant(b.value), formatSignificant(b.low), formatSignificant(b.high), basis,
                             notes);
        speed.push_back(b);

        RangeBar t{sys.label, name, count, sys.color, true, p.ttftSeconds * 1000, p.ttftRange.low * 1000,
                   p.ttftRange.high * 1000, {}};
        t.tooltip = tr("Time to first token %1 ms (range %2 – %3) for a %4-token prompt\n%5")
                        .arg(formatSignificant(t.value), formatSignificant(t.low), formatSignificant(t.high))
                        .arg(s.settings.promptTokens)
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
        curves.push_back({name, sys.color, p.concurrencyCurve, p.concurrency, p.maxConcurrency});
    }
    m_speed->setBars(tr("Decode speed per user (%1)").arg(s.modelName), tr("tokens/s per user"),
                     QStringLiteral("tokens_per_second_per_user"), QStringLiteral("tokens_per_second_per_user"), speed);
    m_ttft->setBars(tr("Time to first token (%1-token prompt)").arg(s.settings.promptTokens), tr("milliseconds"),
                    QStringLiteral("time_to_first_token"), QStringLiteral("ttft_ms"), ttft);
    m_energy->setBars(tr("Energy per token (concurrency %1)").arg(s.settings.concurrency), tr("joules per token"),
                      QStringLiteral("energy_per_token"), QStringLiteral("joules_per_token"), energy);
    m_curves->setCurves(curves);
}

void ComparisonPanel::fillMeaning()
{
    const ComparisonSnapshot& s = *m_snapshot;
    const ComparisonSettings& set = s.settings;
    const auto [readLo, readHi] = readingTokensPerSecond(s.reading, set.tokensPerCharacterLow,
                                                         set.tokensPerCharacterHigh);
    m_meaning->setHorizontalHeaderLabels(
        {tr("System"), tr("Tokens/s per user"), tr("First token"),
         tr("Agent %1 × %2 tokens").arg(set.agentSteps).arg(set.agentTokensPerStep),
         tr("%1-character answer").arg(set.answerCharacters), tr("vs. reading")});
    int rows = 0;
    for (const ComparisonSystem& sys : s.systems)
        rows += sys.ok ? 1 : 0;
    m_meaning->setRowCount(rows + 1);
    int r = 0;
    const QString engine = tr("Engine prediction (see the charts' tooltips for the basis)");
    for (const ComparisonSystem& sys : s.systems) {
        if (!sys.ok)
            continue;
        const Prediction& p = sys.prediction;
        auto* name = cell(sys.label, QString::fromStdString(p.hardwareId));
        name->setForeground(sys.color.darker(120));
        m_meaning->setItem(r, 0, name);
        m_meaning->setItem(r, 1, cell(formatSignificant(p.tokensPerSecondPerUser), engine));
        m_meaning->setItem(r, 2, cell(duration(p.ttftSeconds), engine));
        m_meaning->setItem(r, 3, cell(duration(p.agentWorkflowSeconds),
                                      tr("Steps × (time to first token + tokens per step / tokens/s): engine")));
        m_meaning->setItem(r, 4, cell(durationRange(p.answerSecondsRange.low, p.answerSecondsRange.high),
                                      tr("Time to first token + characters × %1–%2 tokens per character / tokens/s; "
                                         "tokens per character: %3")
                                          .arg(set.tokensPerCharacterLow)
                                          .arg(set.tokensPerCharacterHigh)
                                          .arg(s.tokensPerCharacterSource)));
        const double fasterLo = p.tokensPerSecondPerUser / readHi;
        const double fasterHi = p.tokensPerSecondPerUser / readLo;
        m_meaning->setItem(r, 5, cell(tr("%1 – %2 × faster").arg(formatSignificant(fasterLo, 2), formatSignificant(fasterHi, 2)),
                                      tr("Tokens/s per user ÷ reading speed in tokens/s (%1 – %2)")
                                          .arg(formatSignificant(readLo), formatSignificant(readHi))));
        ++r;
    }
    const double chars = double(set.answerCharacters);
    const QString readTip = tr("Reading %1–%2 characters a minute: %3")
                                .arg(s.reading.charactersPerMinuteLow)
                                .arg(s.reading.charactersPerMinuteHigh)
                                .arg(s.reading.source);
    auto* reader = cell(tr("Human reader"), readTip);
    QFont italic = reader->font();
    italic.setItalic(true);
    reader->setFont(italic);
    m_meaning->setItem(r, 0, reader);
    m_meaning->setItem(r, 1, cell(tr("%1 – %2").arg(formatSignificant(readLo), formatSignificant(readHi)), readTip));
    m_meaning->setItem(r, 2, cell(QStringLiteral("–"), readTip));
    m_meaning->setItem(r, 3, cell(QStringLiteral("–"), readTip));
    m_meaning->setItem(r, 4, cell(durationRange(chars * 60 / s.reading.charactersPerMinuteHigh,
                                                chars * 60 / s.reading.charactersPerMinuteLow),
                                  readTip));
    m_meaning->setItem(r, 5, cell(QStringLiteral("1 ×"), readTip));
    fitTableHeight(m_meaning);
    const ComparisonSystem* fastest = nullptr;
    const ComparisonSystem* slowest = nullptr;
    for (const ComparisonSystem& sys : s.systems) {
        if (!sys.ok)
            continue;
        if (!fastest || sys.prediction.tokensPerSecondPerUser > fastest->prediction.tokensPerSecondPerUser)
            fastest = &sys;
        if (!slowest || sys.prediction.tokensPerSecondPerUser < slowest->prediction.tokensPerSecondPerUser)
            slowest = &sys;
    }
    if (fastest && slowest && fastest != slowest) {
        auto who = [](const ComparisonSystem* x) {
            return QStringLiteral("<span style='color:%1; font-weight:600'>%2</span>")
                .arg(x->color.darker(120).name(), x->label.toHtmlEscaped());
        };
        const auto& f = fastest->prediction;
        const auto& w = slowest->prediction;
        m_headline->setText(
            QStringLiteral("<div style='font-size:12pt; line-height:140%'>") +
            tr("A %1-character Chinese answer: %2 on %3, %4 on %5; a person needs %6 to read it.")
                .arg(set.answerCharacters)
                .arg(durationRange(f.answerSecondsRange.low, f.answerSecondsRange.high), who(fastest),
                     durationRange(w.answerSecondsRange.low, w.answerSecondsRange.high), who(slowest),
                     durationRange(chars * 60 / s.reading.charactersPerMinuteHigh,
                                   chars * 60 / s.reading.charactersPerMinuteLow)) +
            QStringLiteral("<br>") +
            tr("An agent workflow of %1 steps × %2 tokens: %3 on %4, %5 on %6.")
                .arg(set.agentSteps)
                .arg(set.agentTokensPerStep)
                .arg(duration(f.agentWorkflowSeconds), who(fastest), duration(w.agentWorkflowSeconds), who(slowest)) +
            QStringLiteral("</div>"));
    } else {
        m_headline->clear();
    }
    m_meaningNote->setText(
        tr("A reader takes in %1–%2 Chinese characters a minute (%3), i.e. %4–%5 tokens/s at %6–%7 tokens per "
           "character. Predictions are the engine's, with the ranges of its calibration profiles.")
            .arg(s.reading.charactersPerMinuteLow)
            .arg(s.reading.charactersPerMinuteHigh)
            .arg(s.reading.source, formatSignificant(readLo), formatSignificant(readHi))
            .arg(set.tokensPerCharacterLow)
            .arg(set.tokensPerCharacterHigh));
}

ChartData ComparisonPanel::meaningData() const
{
    ChartData d;
    d.name = QStringLiteral("what_it_means");
    d.columns = {QStringLiteral("system"),          QStringLiteral("tokens_per_second_per_user"),
                 QStringLiteral("ttft_s"),          QStringLiteral("agent_workflow_s"),
                 QStringLiteral("answer_s"),        QStringLiteral("answer_s_low"),
                 QStringLiteral("answer_s_high")};
    if (!m_snapshot)
        return d;
    for (const ComparisonSystem& sys : m_snapshot->systems)
        if (sys.ok) {
            const Prediction& p = sys.prediction;
            d.rows.append(QVariantList{sys.label, p.tokensPerSecondPerUser, p.ttftSeconds, p.agentWorkflowSeconds,
                                       p.answerSeconds, p.answerSecondsRange.low, p.answerSecondsRange.high});
        }
    return d;
}

ChartData ComparisonPanel::inputData() const
{
    ChartData d;
    d.name = QStringLiteral("inputs");
    d.columns = {QStringLiteral("group"), QStringLiteral("parameter"), QStringLiteral("value"), QStringLiteral("source")};
    for (const ComparisonInput& in : m_inputs->inputs())
        d.rows.append(QVariantList{in.group, in.name, in.value, in.source});
    return d;
}

} // namespace ws::views
