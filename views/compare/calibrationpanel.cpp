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
QTableWidget* makeTable()
{
    auto* t = new QTableWidget;
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    return t;
}

// A profile's constants with their units and sources (shown, not exported).
ChartTable constantRows(const std::vector<ParamInfo>& constants)
{
    ChartTable t{{},
                 {{CalibrationPanel::tr("Constant")},
                  {CalibrationPanel::tr("Value")},
                  {CalibrationPanel::tr("Unit")},
                  {CalibrationPanel::tr("Source")}},
                 {}};
    for (const ParamInfo& c : constants) {
        const QString tip = QString::fromStdString(c.description);
        t.rows.append({{{QString::fromStdString(c.label.empty() ? c.name : c.label), {}, tip},
                        {formatSignificant(c.value, 4), {}, tip},
                        {QString::fromStdString(c.unit)},
                        {QString::fromStdString(c.source)}}});
    }
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
    m_rows = makeTable();
    m_constants = makeTable();
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
    showProfile(-1); // the tables' columns, before any profile
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
            QString text = tr("%1 (%2) — rms %3 %")
                               .arg(id, QString::fromStdString(p.kind), formatResidualPercent(p.rmsRelativeResidual));
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
    const CalibrationProfile* p =
        index >= 0 && index < static_cast<int>(m_profiles.size()) ? &m_profiles[size_t(index)] : nullptr;
    // The rows the chart exports, for this profile.
    showTable(m_rows, CalibrationChart::rows(p ? std::span(p, 1) : std::span<const CalibrationProfile>()));
    showTable(m_constants, constantRows(p ? p->constants : std::vector<ParamInfo>()));
    if (!p) {
        m_info->clear();
        return;
    }
    m_info->setText(
        tr("<b>%1</b> — %2<br>Source: %3<br>Fit: rms relative residual %4 %, worst %5 %")
            .arg(QString::fromStdString(p->id).toHtmlEscaped(), QString::fromStdString(p->description).toHtmlEscaped(),
                 QString::fromStdString(p->source).toHtmlEscaped(), formatResidualPercent(p->rmsRelativeResidual),
                 formatResidualPercent(p->maxAbsRelativeResidual)));
    m_rows->resizeColumnsToContents();
    m_constants->resizeColumnsToContents();
}

} // namespace ws::views
