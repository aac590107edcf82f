#include "views/compare/calibrationpanel.h"

#include "views/charts/chartcard.h"
#include "views/charts/chartformat.h"
#include "views/compare/calibrationchart.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ws::views {

namespace {
QTableWidgetItem* item(const QString& text, const QString& tip = {})
{
    auto* it = new QTableWidgetItem(text);
    it->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (!tip.isEmpty())
        it->setToolTip(tip);
    return it;
}

QTableWidget* makeTable(const QStringList& headers)
{
    auto* t = new QTableWidget(0, int(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    return t;
}
} // namespace

CalibrationPanel::CalibrationPanel(QWidget* parent) : QWidget(parent)
{
    m_list = new QListWidget;
    m_list->setToolTip(tr("Calibration profiles: efficiency constants fitted by least squares to published "
                          "measurements (resources/measurements)"));
    m_fit = new QPushButton(tr("Fit from my measurements…"));
    m_fit->setToolTip(tr("Enter or load your own decode measurements and fit a new profile with the engine's "
                         "least-squares fitter"));
    connect(m_fit, &QPushButton::clicked, this, &CalibrationPanel::fitRequested);
    m_addMeasurements = new QPushButton(tr("Add measurements…"));
    m_addMeasurements->setObjectName(QStringLiteral("addMeasurementsButton"));
    m_addMeasurements->setToolTip(tr("Load a JSON file of your own decode measurements (the format of "
                                     "resources/measurements); matching figures appear on the comparison's charts"));
    connect(m_addMeasurements, &QPushButton::clicked, this, &CalibrationPanel::addMeasurementsRequested);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("Profiles")));
    leftLayout->addWidget(m_list, 1);
    leftLayout->addWidget(m_fit);
    leftLayout->addWidget(m_addMeasurements);

    m_info = new QLabel;
    m_info->setWordWrap(true);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_rows = makeTable(
        {tr("Measurement"), tr("Measured tok/s"), tr("Predicted tok/s"), tr("Residual"), tr("Fitted"), tr("Note")});
    m_constants = makeTable({tr("Constant"), tr("Value"), tr("Unit"), tr("Source")});
    auto* middle = new QWidget;
    auto* midLayout = new QVBoxLayout(middle);
    midLayout->setContentsMargins(0, 0, 0, 0);
    midLayout->addWidget(m_info);
    midLayout->addWidget(new QLabel(tr("Measurements and residuals")));
    midLayout->addWidget(m_rows, 3);
    midLayout->addWidget(new QLabel(tr("Constants")));
    midLayout->addWidget(m_constants, 2);

    m_chart = new CalibrationChart;
    m_card = new ChartCard(m_chart);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(middle);
    split->addWidget(m_card);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 3);
    split->setSizes({240, 640, 640});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(m_list, &QListWidget::currentRowChanged, this, &CalibrationPanel::showProfile);
}

void CalibrationPanel::setProfiles(const std::vector<CalibrationProfile>& profiles, const QStringList& userIds)
{
    const QString keep = selectedProfile();
    m_profiles = profiles;
    m_userIds = userIds;
    {
        const QSignalBlocker block(m_list);
        m_list->clear();
        for (const CalibrationProfile& p : profiles) {
            const QString id = QString::fromStdString(p.id);
            QString text =
                tr("%1 (%2) — rms %3 %")
                    .arg(id, QString::fromStdString(p.kind), formatSignificant(p.rmsRelativeResidual * 100, 2));
            if (userIds.contains(id))
                text += QLatin1Char(' ') + tr("[yours]");
            auto* it = new QListWidgetItem(text, m_list);
            it->setData(Qt::UserRole, id);
            it->setToolTip(QString::fromStdString(p.source));
        }
    }
    m_chart->setProfiles(profiles);
    if (!keep.isEmpty())
        selectProfile(keep);
    if (m_list->currentRow() < 0 && m_list->count() > 0)
        m_list->setCurrentRow(0);
    showProfile(m_list->currentRow());
}

void CalibrationPanel::selectProfile(const QString& id)
{
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toString() == id)
            m_list->setCurrentRow(i);
}

QString CalibrationPanel::selectedProfile() const
{
    const QListWidgetItem* it = m_list->currentItem();
    return it ? it->data(Qt::UserRole).toString() : QString();
}

void CalibrationPanel::showProfile(int index)
{
    m_rows->setRowCount(0);
    m_constants->setRowCount(0);
    if (index < 0 || index >= static_cast<int>(m_profiles.size())) {
        m_info->clear();
        return;
    }
    const CalibrationProfile& p = m_profiles[size_t(index)];
    m_info->setText(
        tr("<b>%1</b> — %2<br>Source: %3<br>Fit: rms relative residual %4 %, worst %5 %")
            .arg(QString::fromStdString(p.id).toHtmlEscaped(), QString::fromStdString(p.description).toHtmlEscaped(),
                 QString::fromStdString(p.source).toHtmlEscaped(), formatSignificant(p.rmsRelativeResidual * 100, 2),
                 formatSignificant(p.maxAbsRelativeResidual * 100, 2)));
    const QString source = QString::fromStdString(p.source);
    m_rows->setRowCount(int(p.rows.size()));
    for (int r = 0; r < int(p.rows.size()); ++r) {
        const CalibrationRow& row = p.rows[size_t(r)];
        const QString metric = row.metric == "aggregate_tokens_per_second" ? tr("aggregate") : tr("per user");
        m_rows->setItem(r, 0, item(QString::fromStdString(row.label), source));
        m_rows->setItem(r, 1, item(formatSignificant(row.observed) + QLatin1Char(' ') + metric, source));
        m_rows->setItem(r, 2, item(formatSignificant(row.predicted), tr("The engine's predictor with this profile")));
        auto* res = item(QStringLiteral("%1 %").arg(formatSignificant(row.relativeResidual * 100, 2)),
                         tr("(predicted − measured) / measured"));
        res->setForeground(std::abs(row.relativeResidual) > 0.25 ? QColor(0xc0, 0x39, 0x2b) : QColor(0x1e, 0x84, 0x49));
        m_rows->setItem(r, 3, res);
        m_rows->setItem(r, 4, item(row.fitted ? tr("yes") : tr("no")));
        m_rows->setItem(r, 5, item(QString::fromStdString(row.note), QString::fromStdString(row.note)));
    }
    m_constants->setRowCount(int(p.constants.size()));
    for (int r = 0; r < int(p.constants.size()); ++r) {
        const ParamInfo& c = p.constants[size_t(r)];
        const QString tip = QString::fromStdString(c.description);
        m_constants->setItem(r, 0, item(QString::fromStdString(c.label.empty() ? c.name : c.label), tip));
        m_constants->setItem(r, 1, item(formatSignificant(c.value, 4), tip));
        m_constants->setItem(r, 2, item(QString::fromStdString(c.unit)));
        m_constants->setItem(r, 3, item(QString::fromStdString(c.source), QString::fromStdString(c.source)));
    }
    m_rows->resizeColumnsToContents();
    m_constants->resizeColumnsToContents();
}

} // namespace ws::views
