#include "app/explore/whatittakesdialog.h"

#include "app/common/presetlibrary.h"
#include "app/export/exporter.h"
#include "app/scenario/scenarioformat.h"
#include "engine/calibration/measuredpoints.h"
#include "views/charts/chartformat.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ws {

struct WhatItTakesDialog::Inputs
{
    ModelConfig model;
    HardwareSpec hardware;
    Workload workload;
    PredictOptions options;
    Scenario scenario;
};

WhatItTakesDialog::WhatItTakesDialog(const PresetLibrary& presets, QWidget* parent)
    : QDialog(parent), m_presets(presets), m_jobs(this)
{
    setObjectName(QStringLiteral("whatItTakesDialog"));
    setWindowTitle(tr("What would it take?"));
    m_title = new QLabel;
    m_title->setWordWrap(true);
    m_target = new QDoubleSpinBox;
    m_target->setObjectName(QStringLiteral("targetTokensPerSecond"));
    m_target->setRange(1, 1e7);
    m_target->setDecimals(0);
    m_target->setSuffix(tr(" tokens/s per user"));
    m_target->setKeyboardTracking(false);
    m_target->setToolTip(tr("The speed per user to reach; the search tries kernels, speculative decoding, a "
                            "mixture-of-experts model's expert layout and devices (engine/explore/targetsearch.h), "
                            "the same as waferscope-cli predict --target-tokens-per-second"));
    m_figures = new QComboBox;
    m_figures->setObjectName(QStringLiteral("publishedFigures"));
    m_figures->setToolTip(tr("Published or measured figures for this model and hardware (the shipped measurement "
                             "rows), each with its source"));
    m_table = new QTableWidget;
    m_table->setObjectName(QStringLiteral("whatItTakesTable"));
    m_rows = rows({});
    views::showTable(m_table, m_rows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("whatItTakesVerdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(new QLabel(tr("Target:")));
    targetRow->addWidget(m_target);
    targetRow->addWidget(new QLabel(tr("or a published figure:")));
    targetRow->addWidget(m_figures, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_export = buttons->addButton(tr("Export…"), QDialogButtonBox::ActionRole);
    m_export->setToolTip(tr("Save the table as CSV or JSON"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_export, &QPushButton::clicked, this, &WhatItTakesDialog::exportTable);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(targetRow);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_verdict);
    layout->addWidget(buttons);
    resize(900, 560);

    connect(m_target, &QDoubleSpinBox::valueChanged, this, &WhatItTakesDialog::search);
    connect(m_figures, &QComboBox::activated, this, [this](int index) {
        const double value = m_figures->itemData(index).toDouble();
        if (value > 0)
            m_target->setValue(value);
    });
}

bool WhatItTakesDialog::setScenario(const Scenario& s, QString* error)
{
    auto model = m_presets.model(s.modelPreset);
    auto hardware = m_presets.hardware(s.hardwarePreset);
    if (!model || !hardware) {
        *error = QString::fromStdString((!model ? model.error() : hardware.error()).message());
        return false;
    }
    auto in = std::make_shared<Inputs>();
    in->model = std::move(*model);
    in->hardware = std::move(*hardware);
    in->workload.precision = s.precision;
    in->workload.contextTokens = s.contextTokens;
    in->workload.promptTokens = s.promptTokens;
    in->workload.outputTokens = s.outputTokens;
    in->workload.concurrency = std::max(1, s.batch);
    in->options.devices = s.devices;
    if (s.layout) // the scenario's expert layout is tried first
        in->options.wafer.experts = s.layout->experts;
    in->scenario = s;
    m_title->setText(tr("<b>%1</b> on %2 at %3, %4 tokens of context, %5 user(s)")
                         .arg(QString::fromStdString(in->model.name).toHtmlEscaped(),
                              QString::fromStdString(in->hardware.name).toHtmlEscaped(),
                              QString::fromLatin1(precisionId(s.precision)))
                         .arg(s.contextTokens)
                         .arg(in->workload.concurrency));
    // Published figures for this model and hardware, fastest first.
    const QSignalBlocker block(m_figures);
    m_figures->clear();
    m_figures->addItem(tr("(choose)"), 0.0);
    std::vector<const MeasuredPoint*> rows;
    if (const auto& shipped = shippedMeasuredPoints(); shipped)
        for (const MeasuredPoint& p : *shipped)
            if (p.modelId == in->model.id && p.hardwareId == in->hardware.id && p.tokensPerSecondPerUser() > 0)
                rows.push_back(&p);
    std::sort(rows.begin(), rows.end(), [](const MeasuredPoint* a, const MeasuredPoint* b) {
        return a->tokensPerSecondPerUser() > b->tokensPerSecondPerUser();
    });
    for (const MeasuredPoint* p : rows) {
        m_figures->addItem(
            tr("%1 tokens/s: %2")
                .arg(views::formatSignificant(p->tokensPerSecondPerUser()), QString::fromStdString(p->label)),
            p->tokensPerSecondPerUser());
        m_figures->setItemData(m_figures->count() - 1,
                               QString::fromStdString(p->source + (p->date.empty() ? "" : " (" + p->date + ")")),
                               Qt::ToolTipRole);
    }
    m_figures->setEnabled(!rows.empty());
    m_inputs = std::move(in);
    // A target to start from: the fastest published figure for this model and hardware, else a round 1,000.
    const double start = !rows.empty() ? rows.front()->tokensPerSecondPerUser() : 1000.0;
    if (m_target->value() != start) {
        if (!rows.empty())
            m_figures->setCurrentIndex(1);
        m_target->setValue(start); // searches
    } else {
        search();
    }
    return true;
}

void WhatItTakesDialog::setTarget(double tokensPerSecond)
{
    m_target->setValue(tokensPerSecond);
}

double WhatItTakesDialog::target() const
{
    return m_target->value();
}

void WhatItTakesDialog::search()
{
    if (!m_inputs)
        return;
    m_answer.reset();
    m_export->setEnabled(false);
    m_verdict->setText(tr("Searching…"));
    const double target = m_target->value();
    m_jobs.start(
        [in = m_inputs, target] { return whatItTakes(in->model, in->hardware, in->workload, in->options, target); },
        [this](const Expected<TargetAnswer>& answer) { showAnswer(answer); });
}

views::ChartTable WhatItTakesDialog::rows(const TargetAnswer& answer)
{
    views::ChartTable t;
    t.name = QStringLiteral("what_it_takes");
    t.columns = {{tr("Kernels"), {QStringLiteral("kernel")}},
                 {tr("Factor"), {QStringLiteral("kernel_factor")}},
                 {tr("Experts"), {QStringLiteral("experts")}},
                 {tr("Draft tokens"), {QStringLiteral("speculative"), QStringLiteral("draft_tokens")}},
                 {tr("Acceptance"), {QStringLiteral("acceptance")}},
                 {tr("Devices"), {QStringLiteral("devices")}},
                 {tr("Tokens/s per user"), {QStringLiteral("tokens_per_second_per_user")}},
                 {tr("Ceiling"), {QStringLiteral("ceiling_tokens_per_second"), QStringLiteral("ceiling_bound")}},
                 {tr("Reaches"), {QStringLiteral("reaches")}}};
    const QString none = QStringLiteral("–");
    for (size_t i = 0; i < answer.tried.size(); ++i) {
        const TargetOption& o = answer.tried[i];
        const QString kernel = QString::fromStdString(o.kernel), bound = QString::fromStdString(o.ceilingBound);
        views::ChartRow row;
        row.cells = {
            {kernel.isEmpty() ? none : kernel, {kernel}},
            {QString::number(o.kernelFactor, 'f', 3), {o.kernelFactor}},
            {o.experts.empty() ? none : QString::fromStdString(o.experts), {QString::fromStdString(o.experts)}},
            {o.speculative ? QString::number(o.draftTokens) : none,
             {o.speculative, o.speculative ? QVariant(o.draftTokens) : QVariant()}},
            {o.speculative ? QString::number(o.acceptance, 'f', 2) : none,
             {o.speculative ? QVariant(o.acceptance) : QVariant()}},
            {QString::number(o.devices), {o.devices}},
            {views::formatSignificant(o.tokensPerSecond), {o.tokensPerSecond}},
            {tr("%1 (%2)").arg(views::formatSignificant(o.ceilingTokensPerSecond), bound),
             {o.ceilingTokensPerSecond, bound}},
            {o.reaches ? tr("yes") : tr("no"), {o.reaches}}};
        if (answer.least && *answer.least == i)
            row.background = QColor(0x2e, 0x7d, 0x32, 90); // the least change that reaches it
        t.rows.append(row);
    }
    return t;
}

void WhatItTakesDialog::showAnswer(const Expected<TargetAnswer>& answer)
{
    m_rows = rows(answer ? *answer : TargetAnswer{});
    views::showTable(m_table, m_rows);
    if (!answer) {
        m_verdict->setText(QString::fromStdString(answer.error().message()));
        emit answered();
        return;
    }
    m_answer = *answer;
    m_table->resizeColumnsToContents();
    m_verdict->setText(QString::fromStdString(answer->verdict));
    m_export->setEnabled(true);
    emit answered();
}

DataTable WhatItTakesDialog::tableData() const
{
    if (!m_answer || !m_inputs)
        return {};
    const views::ChartData d = m_rows.exported();
    DataTable t;
    t.name = d.name;
    t.columns = d.columns;
    t.rows = d.rows;
    t.inputs = QJsonObject{{QStringLiteral("model"), QString::fromStdString(m_inputs->model.id)},
                           {QStringLiteral("hardware"), QString::fromStdString(m_inputs->hardware.id)},
                           {QStringLiteral("target_tokens_per_second"), m_answer->target},
                           {QStringLiteral("verdict"), QString::fromStdString(m_answer->verdict)}};
    return t;
}

void WhatItTakesDialog::exportTable()
{
    if (!m_answer || !m_inputs)
        return;
    QString path = QFileDialog::getSaveFileName(this, tr("Export"), QStringLiteral("what-it-takes.csv"),
                                                tr("CSV files (*.csv);;JSON files (*.json)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".csv");
    QString error;
    if (!Exporter::saveTable(tableData(), path, &error,
                             ExportStamp::forScenario(ScenarioFormat::toJson(m_inputs->scenario))))
        QMessageBox::warning(this, tr("Export"), error);
}

} // namespace ws
