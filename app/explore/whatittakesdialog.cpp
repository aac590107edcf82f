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
    m_target->setToolTip(tr("The speed per user to reach; the search tries kernels, speculative decoding and "
                            "devices (engine/explore/targetsearch.h), the same as waferscope-cli predict "
                            "--target-tokens-per-second"));
    m_figures = new QComboBox;
    m_figures->setObjectName(QStringLiteral("publishedFigures"));
    m_figures->setToolTip(tr("Published or measured figures for this model and hardware (the shipped measurement "
                             "rows), each with its source"));
    m_table = new QTableWidget(0, 8);
    m_table->setObjectName(QStringLiteral("whatItTakesTable"));
    m_table->setHorizontalHeaderLabels({tr("Kernels"), tr("Factor"), tr("Draft tokens"), tr("Acceptance"),
                                        tr("Devices"), tr("Tokens/s per user"), tr("Ceiling"), tr("Reaches")});
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

void WhatItTakesDialog::showAnswer(const Expected<TargetAnswer>& answer)
{
    m_table->setRowCount(0);
    if (!answer) {
        m_verdict->setText(QString::fromStdString(answer.error().message()));
        emit answered();
        return;
    }
    m_answer = *answer;
    const QString yes = tr("yes"), no = tr("no");
    for (size_t i = 0; i < answer->tried.size(); ++i) {
        const TargetOption& t = answer->tried[i];
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        const QStringList cells{t.kernel.empty() ? QStringLiteral("–") : QString::fromStdString(t.kernel),
                                QString::number(t.kernelFactor, 'f', 3),
                                t.speculative ? QString::number(t.draftTokens) : QStringLiteral("–"),
                                t.speculative ? QString::number(t.acceptance, 'f', 2) : QStringLiteral("–"),
                                QString::number(t.devices),
                                views::formatSignificant(t.tokensPerSecond),
                                tr("%1 (%2)").arg(views::formatSignificant(t.ceilingTokensPerSecond),
                                                  QString::fromStdString(t.ceilingBound)),
                                t.reaches ? yes : no};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (answer->least && *answer->least == i)
                item->setBackground(QColor(0x2e, 0x7d, 0x32, 90)); // the least change that reaches it
            m_table->setItem(row, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    m_verdict->setText(QString::fromStdString(answer->verdict));
    m_export->setEnabled(true);
    emit answered();
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
    DataTable t;
    t.name = QStringLiteral("what_it_takes");
    t.columns = {QStringLiteral("kernel"),
                 QStringLiteral("kernel_factor"),
                 QStringLiteral("speculative"),
                 QStringLiteral("draft_tokens"),
                 QStringLiteral("acceptance"),
                 QStringLiteral("devices"),
                 QStringLiteral("tokens_per_second_per_user"),
                 QStringLiteral("ceiling_tokens_per_second"),
                 QStringLiteral("ceiling_bound"),
                 QStringLiteral("reaches")};
    for (const TargetOption& o : m_answer->tried)
        t.rows.append(QVariantList{QString::fromStdString(o.kernel), o.kernelFactor, o.speculative,
                                   o.speculative ? QVariant(o.draftTokens) : QVariant(),
                                   o.speculative ? QVariant(o.acceptance) : QVariant(), o.devices, o.tokensPerSecond,
                                   o.ceilingTokensPerSecond, QString::fromStdString(o.ceilingBound), o.reaches});
    t.inputs = QJsonObject{{QStringLiteral("model"), QString::fromStdString(m_inputs->model.id)},
                           {QStringLiteral("hardware"), QString::fromStdString(m_inputs->hardware.id)},
                           {QStringLiteral("target_tokens_per_second"), m_answer->target},
                           {QStringLiteral("verdict"), QString::fromStdString(m_answer->verdict)}};
    QString error;
    if (!Exporter::saveTable(t, path, &error, ExportStamp::forScenario(ScenarioFormat::toJson(m_inputs->scenario))))
        QMessageBox::warning(this, tr("Export"), error);
}

} // namespace ws
