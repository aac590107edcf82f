#include "app/explore/sweepdock.h"

#include "app/explore/explorebase.h"
#include "app/export/exporter.h"

#include "views/explore/sweepchart.h"
#include "views/widgets/comboitems.h"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace ws {

namespace {
struct SweepRun
{
    std::shared_ptr<const SweepResult> result;
    QString error;
};
} // namespace

SweepDock::SweepDock(const PresetLibrary& presets, std::function<Scenario()> currentScenario, QWidget* parent)
    : QDockWidget(parent), m_presets(presets), m_current(std::move(currentScenario)), m_jobs(this), m_open(this)
{
    setObjectName(QStringLiteral("sweepDock"));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* form = new QHBoxLayout;
    for (int i = 0; i < 2; ++i) {
        m_param[i] = new QComboBox(body);
        m_param[i]->setObjectName(QStringLiteral("sweepParameter%1").arg(i + 1));
        if (i == 1)
            m_param[i]->addItem(QString(), QString());
        for (SweepParameter p : sweepParameters())
            m_param[i]->addItem(QString::fromLatin1(sweepParameterId(p)), QString::fromLatin1(sweepParameterId(p)));
        m_values[i] = new QLineEdit(body);
        m_values[i]->setObjectName(QStringLiteral("sweepValues%1").arg(i + 1));
        form->addWidget(m_param[i]);
        form->addWidget(m_values[i], 1);
    }
    // Fill against layer order: both change where the layers sit, and fill changes how many wafers they need.
    m_param[0]->setCurrentIndex(0);
    m_values[0]->setText(QStringLiteral("0.5:0.95:0.05"));
    m_param[1]->setCurrentIndex(m_param[1]->findData(QStringLiteral("order")));
    m_values[1]->setText(QStringLiteral("snake,row-major,column-major"));
    m_run = new QPushButton(body);
    m_run->setObjectName(QStringLiteral("sweepRun"));
    m_cancel = new QPushButton(body);
    m_cancel->setObjectName(QStringLiteral("sweepCancel"));
    m_cancel->setEnabled(false);
    m_export = new QPushButton(body);
    m_export->setObjectName(QStringLiteral("sweepExport"));
    m_export->setEnabled(false);
    form->addWidget(m_run);
    form->addWidget(m_cancel);
    form->addWidget(m_export);
    layout->addLayout(form);
    auto* statusRow = new QHBoxLayout;
    m_progress = new QProgressBar(body);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel(body);
    m_status->setWordWrap(true);
    statusRow->addWidget(m_progress);
    statusRow->addWidget(m_status, 1);
    layout->addLayout(statusRow);

    m_tabs = new QTabWidget(body);
    m_table = new QTableWidget(m_tabs);
    m_table->setObjectName(QStringLiteral("sweepTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_chart = new views::SweepChart(m_tabs);
    auto* paretoPage = new QWidget(m_tabs);
    auto* paretoLayout = new QVBoxLayout(paretoPage);
    paretoLayout->setContentsMargins(0, 0, 0, 0);
    m_paretoAxis = new QComboBox(paretoPage);
    m_paretoAxis->setObjectName(QStringLiteral("paretoAxis"));
    m_paretoAxis->addItems({QString(), QString()});
    m_pareto = new views::SweepChart(paretoPage);
    m_pareto->setObjectName(QStringLiteral("sweepPareto"));
    m_pareto->setMode(views::SweepChart::Mode::Pareto);
    paretoLayout->addWidget(m_paretoAxis);
    paretoLayout->addWidget(m_pareto, 1);
    m_tabs->addTab(m_table, QString());
    m_tabs->addTab(m_chart, QString());
    m_tabs->addTab(paretoPage, QString());
    layout->addWidget(m_tabs, 1);
    setWidget(body);

    m_poll = new QTimer(this);
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, [this] {
        if (m_done && m_total && m_total->load() > 0) {
            m_progress->setRange(0, int(std::min<int64_t>(m_total->load(), 1 << 30)));
            m_progress->setValue(int(std::min<int64_t>(m_done->load(), 1 << 30)));
        }
    });
    connect(m_run, &QPushButton::clicked, this, &SweepDock::run);
    connect(m_cancel, &QPushButton::clicked, this, &SweepDock::cancel);
    connect(m_export, &QPushButton::clicked, this, &SweepDock::exportAsked);
    connect(m_paretoAxis, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_pareto->setParetoAgainstKv(i == 1); });
    connect(m_chart, &views::SweepChart::pointClicked, this, &SweepDock::openPoint);
    connect(m_pareto, &views::SweepChart::pointClicked, this, &SweepDock::openPoint);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (m_result && row >= 0 && size_t(row) < m_result->points.size())
            openPoint(m_result->points[size_t(row)].index);
    });
    m_jobs.onFailed([this](const QString& e) {
        m_status->setText(e);
        m_run->setEnabled(true);
        m_cancel->setEnabled(false);
        m_poll->stop();
        emit finished(false);
    });
    retranslate();
}

SweepDock::~SweepDock()
{
    if (m_stop)
        m_stop->store(true);
}

void SweepDock::setAxes(const QString& first, const QString& second)
{
    const QString specs[2] = {first, second};
    for (int i = 0; i < 2; ++i) {
        const qsizetype eq = specs[i].indexOf(QLatin1Char('='));
        const int at = m_param[i]->findData(eq < 0 ? QString() : specs[i].left(eq));
        m_param[i]->setCurrentIndex(std::max(0, at));
        m_values[i]->setText(eq < 0 ? QString() : specs[i].mid(eq + 1));
    }
}

void SweepDock::run()
{
    std::vector<SweepAxis> axes;
    for (int i = 0; i < 2; ++i) {
        const QString name = m_param[i]->currentData().toString();
        if (name.isEmpty())
            continue;
        auto axis = parseSweepAxis((name + QLatin1Char('=') + m_values[i]->text().trimmed()).toStdString());
        if (!axis) {
            m_status->setText(QString::fromStdString(axis.error().text));
            return;
        }
        axes.push_back(std::move(*axis));
    }
    m_sweptScenario = m_current();
    QString error;
    const auto base = sweepBaseOf(m_sweptScenario, m_presets, &error);
    if (!base) {
        m_status->setText(error);
        return;
    }
    m_base = *base;
    if (m_stop)
        m_stop->store(true);
    m_stop = std::make_shared<std::atomic<bool>>(false);
    m_done = std::make_shared<std::atomic<int64_t>>(0);
    m_total = std::make_shared<std::atomic<int64_t>>(sweepPointCount(axes));
    m_progress->setRange(0, int(std::min<int64_t>(m_total->load(), 1 << 30)));
    m_progress->setValue(0);
    m_status->setText(tr("Sweeping %1 points…").arg(QLocale().toString(qlonglong(m_total->load()))));
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_poll->start();
    m_jobs.start(
        [base = m_base, axes, stop = m_stop, done = m_done] {
            auto r = runSweep(base, axes, 1, 1, [&](int64_t d, int64_t) {
                done->store(d);
                return !stop->load();
            });
            if (!r)
                return SweepRun{nullptr, QString::fromStdString(r.error().text)};
            return SweepRun{std::make_shared<const SweepResult>(std::move(*r)), QString()};
        },
        [this](SweepRun r) {
            m_run->setEnabled(true);
            m_cancel->setEnabled(false);
            m_poll->stop();
            if (!r.result) {
                m_status->setText(r.error);
                emit finished(false);
                return;
            }
            showResult(std::move(r.result));
            emit finished(true);
        });
}

void SweepDock::cancel()
{
    if (m_stop)
        m_stop->store(true);
    m_jobs.cancel();
    m_poll->stop();
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_status->setText(tr("Sweep cancelled."));
    emit finished(false);
}

void SweepDock::showResult(std::shared_ptr<const SweepResult> result)
{
    m_result = std::move(result);
    m_progress->setValue(m_progress->maximum());
    int failed = 0;
    for (const SweepPoint& p : m_result->points)
        failed += p.error.empty() ? 0 : 1;
    m_status->setText(tr("%1 points, %2 not placed or predicted. Click a point on a chart (or double-click a row) "
                         "to open its layout as B.")
                          .arg(QLocale().toString(qlonglong(m_result->points.size())))
                          .arg(failed));
    fillTable();
    m_chart->setResult(m_result);
    m_pareto->setResult(m_result);
    m_export->setEnabled(true);
}

void SweepDock::fillTable()
{
    m_table->clear();
    if (!m_result)
        return;
    QStringList headers;
    for (const SweepAxis& a : m_result->axes)
        headers << QString::fromLatin1(sweepParameterId(a.parameter));
    headers << tr("tokens/s per user") << tr("ms per token") << tr("TTFT (ms)") << tr("wafers")
            << tr("KV capacity (tokens)") << tr("SRAM headroom (bytes)") << tr("error");
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(int(m_result->points.size()));
    const QLocale locale;
    int row = 0;
    for (const SweepPoint& p : m_result->points) {
        int c = 0;
        for (const std::string& v : p.values)
            m_table->setItem(row, c++, new QTableWidgetItem(QString::fromStdString(v)));
        const bool ok = p.error.empty();
        const QStringList cells{ok ? locale.toString(p.tokensPerSecondPerUser, 'g', 6) : QString(),
                                ok ? locale.toString(p.msPerToken, 'g', 6) : QString(),
                                ok ? locale.toString(p.ttftMs, 'g', 6) : QString(),
                                ok ? locale.toString(p.devices) : QString(),
                                ok ? locale.toString(qlonglong(p.kvCapacityTokens)) : QString(),
                                ok ? locale.toString(qlonglong(p.sramHeadroomBytes)) : QString(),
                                QString::fromStdString(p.error)};
        for (const QString& text : cells)
            m_table->setItem(row, c++, new QTableWidgetItem(text));
        ++row;
    }
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void SweepDock::openPoint(int64_t index)
{
    if (!m_result)
        return;
    auto base = sweepPointBase(m_base, m_result->axes, index);
    if (!base) {
        m_status->setText(QString::fromStdString(base.error().text));
        return;
    }
    QStringList values;
    for (const SweepPoint& p : m_result->points)
        if (p.index == index)
            for (size_t a = 0; a < p.values.size(); ++a)
                values << QStringLiteral("%1 = %2").arg(
                    QString::fromLatin1(sweepParameterId(m_result->axes[a].parameter)),
                    QString::fromStdString(p.values[a]));
    const QString label = tr("sweep point %1 (%2)").arg(index + 1).arg(values.join(QStringLiteral(", ")));
    m_open.start(
        [b = *base] {
            Layout layout;
            auto p = predictPlaced(b, nullptr, &layout);
            return p ? std::optional<Layout>(std::move(layout)) : std::nullopt;
        },
        [this, b = *base, label](std::optional<Layout> layout) {
            if (!layout) {
                m_status->setText(tr("That point has no layout that places."));
                return;
            }
            emit openAsB(scenarioWithLayout(m_sweptScenario, b, *layout), label);
        });
}

void SweepDock::showTab(int index)
{
    m_tabs->setCurrentIndex(index);
}

bool SweepDock::exportTo(const QString& path, QString* error)
{
    if (!m_result) {
        *error = tr("Run a sweep first.");
        return false;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return Exporter::saveBytes(QByteArray::fromStdString(sweepCsv(*m_result)), path, error);
    if (suffix == QLatin1String("json"))
        return Exporter::saveBytes(QByteArray::fromStdString(sweepJson(*m_result)), path, error);
    QWidget* chart = m_tabs->currentIndex() == 2 ? static_cast<QWidget*>(m_pareto) : m_chart;
    if (suffix == QLatin1String("png"))
        return Exporter::savePng(chart, path, 2.0, error);
    if (suffix == QLatin1String("svg"))
        return Exporter::saveSvg(chart, path, windowTitle(), error);
    *error = tr("Unknown export format “%1”: use .csv, .json, .png or .svg").arg(suffix);
    return false;
}

void SweepDock::exportAsked()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the sweep"), QStringLiteral("sweep.csv"),
        tr("CSV data (*.csv);;JSON data (*.json);;PNG image of the chart (*.png);;SVG drawing of the chart (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void SweepDock::retranslate()
{
    setWindowTitle(tr("Sweep"));
    m_run->setText(tr("Run sweep"));
    m_cancel->setText(tr("Cancel"));
    m_export->setText(tr("Export…"));
    m_param[1]->setItemText(0, tr("(one parameter)"));
    for (int i = 0; i < 2; ++i) {
        m_param[i]->setToolTip(tr("The layout parameter to sweep: weight fill, context, precision, wafer count, "
                                  "concurrency, layer order, region aspect (bands per wafer), hop latency (a factor "
                                  "on each hop's cost) or a mixture-of-experts model's expert layout (blocks, "
                                  "sliced)."));
        m_values[i]->setPlaceholderText(tr("LO:HI:STEP or V1,V2,…"));
        m_values[i]->setToolTip(tr("Values as waferscope-cli sweep takes them: a range LO:HI:STEP or a list."));
    }
    m_tabs->setTabText(0, tr("Table"));
    m_tabs->setTabText(1, tr("Chart"));
    m_tabs->setTabText(2, tr("Pareto"));
    views::setItemTexts(m_paretoAxis,
                        {tr("Tokens/s per user against wafers"), tr("Tokens/s per user against KV capacity")});
    if (m_result)
        fillTable();
}

void SweepDock::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDockWidget::changeEvent(event);
}

} // namespace ws
