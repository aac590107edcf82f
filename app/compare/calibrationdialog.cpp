#include "app/compare/calibrationdialog.h"

#include "views/charts/chartformat.h"
#include "views/compare/calibrationchart.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ws {

namespace {
const char* const kKeys[] = {"label",       "model",   "hardware", "gpus",   "precision",
                             "concurrency", "context", "prompt",   "output", "tokens_per_second_per_user"};
}

CalibrationDialog::CalibrationDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Fit a calibration profile"));
    m_id = new QLineEdit(QStringLiteral("my-gpu-profile"));
    m_id->setToolTip(tr("Name of the new profile"));
    m_table = new QTableWidget(4, ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("Label"), tr("Model preset"), tr("GPU preset"), tr("GPUs"), tr("Precision"),
                                        tr("Users"), tr("Context"), tr("Prompt"), tr("Output"),
                                        tr("Measured tokens/s per user")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("One decode measurement per row. Give either a context (decode only) or prompt and "
                           "output lengths (continuous batching)."));
    m_residuals = new QTableWidget;
    views::showTable(m_residuals, views::CalibrationChart::rows({}));
    m_residuals->horizontalHeader()->setStretchLastSection(true);
    m_residuals->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_summary = new QLabel;
    m_error = new QLabel;
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b03a2e;"));

    auto* load = new QPushButton(tr("Load measurement file…"));
    auto* addRow = new QPushButton(tr("Add row"));
    auto* fitButton = new QPushButton(tr("Fit"));
    fitButton->setDefault(true);
    connect(load, &QPushButton::clicked, this, &CalibrationDialog::loadFile);
    connect(addRow, &QPushButton::clicked, this, [this] { m_table->insertRow(m_table->rowCount()); });
    connect(fitButton, &QPushButton::clicked, this, &CalibrationDialog::fit);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Add profile"));
    m_ok->setEnabled(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* form = new QFormLayout;
    form->addRow(tr("Profile name"), m_id);
    auto* row = new QHBoxLayout;
    row->addWidget(load);
    row->addWidget(addRow);
    row->addStretch(1);
    row->addWidget(fitButton);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Measurements")));
    layout->addWidget(m_table, 2);
    layout->addLayout(row);
    layout->addWidget(m_error);
    layout->addWidget(new QLabel(tr("Fit: residual per measurement")));
    layout->addWidget(m_residuals, 2);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);
    resize(960, 640);
}

void CalibrationDialog::showError(const QString& message)
{
    m_error->setText(message);
}

QString CalibrationDialog::errorText() const
{
    return m_error->text();
}

bool CalibrationDialog::setMeasurementsJson(const QString& jsonText)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(jsonText.toUtf8(), &pe);
    if (!doc.isObject()) {
        showError(tr("Not a measurement file: %1 (at byte %2)").arg(pe.errorString()).arg(pe.offset));
        return false;
    }
    const QJsonObject o = doc.object();
    if (o.contains(QLatin1String("id")))
        m_id->setText(o.value(QLatin1String("id")).toString() + QStringLiteral("-mine"));
    m_otherKindJson.clear();
    if (o.value(QLatin1String("kind")).toString() != QLatin1String("gpu")) {
        // Other kinds are fitted as loaded; the table edits GPU rows only.
        m_otherKindJson = jsonText;
        m_table->setRowCount(0);
        showError({});
        return true;
    }
    const QJsonArray rows = o.value(QLatin1String("rows")).toArray();
    m_table->setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        const QJsonObject j = rows[r].toObject();
        for (int c = 0; c < ColumnCount; ++c) {
            const QJsonValue v = j.value(QLatin1String(kKeys[c]));
            const QString text = v.isDouble() ? QString::number(v.toDouble()) : v.toString();
            m_table->setItem(r, c, new QTableWidgetItem(text));
        }
    }
    showError({});
    return true;
}

QString CalibrationDialog::measurementsJson() const
{
    if (!m_otherKindJson.isEmpty())
        return m_otherKindJson;
    QJsonArray rows;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        QJsonObject j;
        bool any = false;
        for (int c = 0; c < ColumnCount; ++c) {
            const QTableWidgetItem* it = m_table->item(r, c);
            const QString text = it ? it->text().trimmed() : QString();
            if (text.isEmpty())
                continue;
            any = true;
            bool isNumber = false;
            const double v = text.toDouble(&isNumber);
            const bool textual = c == Label || c == Model || c == Hardware || c == Precision;
            if (textual || !isNumber)
                j.insert(QLatin1String(kKeys[c]), text);
            else if (c == Gpus || c == Concurrency || c == Context)
                j.insert(QLatin1String(kKeys[c]), qint64(v));
            else
                j.insert(QLatin1String(kKeys[c]), v);
        }
        if (any)
            rows.append(j);
    }
    QJsonObject o;
    o.insert(QStringLiteral("id"), m_id->text().trimmed());
    o.insert(QStringLiteral("kind"), QStringLiteral("gpu"));
    o.insert(QStringLiteral("description"), tr("Fitted from your measurements"));
    o.insert(QStringLiteral("source"), tr("your measurements"));
    o.insert(QStringLiteral("rows"), rows);
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

bool CalibrationDialog::fit()
{
    m_profile.reset();
    m_ok->setEnabled(false);
    views::showTable(m_residuals, views::CalibrationChart::rows({}));
    m_summary->clear();
    auto result = fitProfile(measurementsJson().toStdString());
    if (!result) {
        showError(tr("The fit failed: %1").arg(QString::fromStdString(result.error().message())));
        return false;
    }
    showError({});
    m_profile = *result;
    if (!m_id->text().trimmed().isEmpty() && m_otherKindJson.isEmpty())
        m_profile->id = m_id->text().trimmed().toStdString();
    // The rows as the calibration tab shows and exports them once the profile is added.
    views::showTable(m_residuals, views::CalibrationChart::rows(std::span(&*m_profile, 1)));
    m_residuals->resizeColumnsToContents();
    m_summary->setText(tr("rms relative residual %1 %, worst %2 % over %3 measurements")
                           .arg(views::formatResidualPercent(m_profile->rmsRelativeResidual),
                                views::formatResidualPercent(m_profile->maxAbsRelativeResidual))
                           .arg(m_profile->rows.size()));
    m_ok->setEnabled(true);
    return true;
}

void CalibrationDialog::loadFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Load measurements"), {}, tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        showError(tr("Cannot read %1: %2").arg(path, f.errorString()));
        return;
    }
    setMeasurementsJson(QString::fromUtf8(f.readAll()));
}

} // namespace ws
