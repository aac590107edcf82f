#include "app/explore/comparedock.h"

#include "app/common/presetlibrary.h"
#include "app/scenario/scenarioprediction.h"

#include "engine/explore/layoutcompare.h"
#include "views/explore/layoutdeltatable.h"
#include "views/mesh/meshview.h"
#include "views/widgets/comboitems.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <utility>

namespace ws {

// What one comparison computed on the worker thread.
struct CompareOutcome
{
    QString error;
    std::shared_ptr<const MeshSnapshot> snapshotA;
    std::shared_ptr<const MeshSnapshot> snapshotB;
    PredictionDelta delta;
    std::shared_ptr<const MeshDifference> sram;
    std::shared_ptr<const MeshDifference> time;
};

namespace {
std::shared_ptr<const CompareOutcome> compare(const Scenario& a, const Scenario& b, const PresetLibrary& presets)
{
    auto out = std::make_shared<CompareOutcome>();
    QString error;
    auto pa = predictScenario(a, presets, QString(), &error, true);
    if (!pa) {
        out->error = CompareDock::tr("A: %1").arg(error);
        return out;
    }
    auto pb = predictScenario(b, presets, QString(), &error, true);
    if (!pb) {
        out->error = CompareDock::tr("B: %1").arg(error);
        return out;
    }
    out->snapshotA = pa->scene.snapshot;
    out->snapshotB = pb->scene.snapshot;
    out->delta = comparePredictions(pa->prediction, pb->prediction);
    if (out->snapshotA && out->snapshotB) {
        out->sram = std::make_shared<const MeshDifference>(sramDifference(*out->snapshotA, *out->snapshotB));
        if (pa->scene.timing && pb->scene.timing)
            out->time = std::make_shared<const MeshDifference>(regionTimeDifference(
                *out->snapshotA, *pa->scene.timing->schedule, *out->snapshotB, *pb->scene.timing->schedule));
    }
    return out;
}
} // namespace

CompareDock::CompareDock(const PresetLibrary& presets, QWidget* parent)
    : QDockWidget(parent), m_presets(presets), m_jobs(this)
{
    setObjectName(QStringLiteral("layoutCompareDock"));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    m_mode = new QComboBox(body);
    m_mode->setObjectName(QStringLiteral("compareMode"));
    m_mode->addItems({QString(), QString(), QString()});
    m_waferLabel = new QLabel(body);
    m_wafer = new QSpinBox(body);
    m_wafer->setObjectName(QStringLiteral("compareWafer"));
    m_wafer->setRange(1, 1);
    m_status = new QLabel(body);
    m_status->setWordWrap(true);
    bar->addWidget(m_mode);
    bar->addWidget(m_waferLabel);
    bar->addWidget(m_wafer);
    bar->addWidget(m_status, 1);
    layout->addLayout(bar);

    auto* split = new QSplitter(Qt::Vertical, body);
    auto* meshes = new QWidget(split);
    auto* grid = new QHBoxLayout(meshes);
    grid->setContentsMargins(0, 0, 0, 0);
    for (auto [side, name] : {std::pair{&m_a, "compareViewA"}, std::pair{&m_b, "compareViewB"}}) {
        auto* column = new QVBoxLayout;
        side->title = new QLabel(meshes);
        side->title->setWordWrap(true);
        side->view = new views::MeshView(meshes);
        side->view->setObjectName(QLatin1String(name));
        side->view->setMinimumSize(160, 100);
        column->addWidget(side->title);
        column->addWidget(side->view, 1);
        grid->addLayout(column, 1);
    }
    m_a.view->setLegendVisible(false); // one legend (B's) for both: the same scale, or B - A's
    m_table = new views::LayoutDeltaTable(split);
    m_table->setMinimumHeight(80);
    split->addWidget(meshes);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});
    layout->addWidget(split, 1);
    setWidget(body);

    connect(m_a.view, &views::MeshView::viewChangedByUser, this, [this] { syncView(m_a.view, m_b.view); });
    connect(m_b.view, &views::MeshView::viewChangedByUser, this, [this] { syncView(m_b.view, m_a.view); });
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] { applyMode(); });
    connect(m_wafer, &QSpinBox::valueChanged, this, [this](int w) {
        m_a.view->setDevice(w - 1);
        m_b.view->setDevice(w - 1);
        syncView(m_b.view, m_a.view);
    });
    m_jobs.onFailed([this](const QString& e) {
        m_error = e;
        m_status->setText(e);
        emit compared(false);
    });
    retranslate();
}

CompareDock::~CompareDock() = default;

void CompareDock::pinA(const Scenario& a, const QString& label)
{
    m_a.scenario = a;
    m_a.label = label;
    retranslate();
    recompute();
}

void CompareDock::setB(const Scenario& b, const QString& label)
{
    m_b.scenario = b;
    m_b.label = label;
    m_followWindow = false;
    retranslate();
    recompute();
}

void CompareDock::followB(const Scenario& b)
{
    m_followWindow = true;
    m_b.label.clear();
    setWindowScenario(b);
}

void CompareDock::setWindowScenario(const Scenario& current)
{
    if (!m_followWindow || (m_b.scenario && *m_b.scenario == current))
        return;
    m_b.scenario = current;
    retranslate();
    recompute();
}

void CompareDock::setMode(Mode mode)
{
    m_mode->setCurrentIndex(int(mode));
}

void CompareDock::recompute()
{
    if (!m_a.scenario || !m_b.scenario)
        return;
    m_status->setText(tr("Comparing…"));
    m_jobs.start([a = *m_a.scenario, b = *m_b.scenario, presets = &m_presets] { return compare(a, b, *presets); },
                 [this](std::shared_ptr<const CompareOutcome> o) { showOutcome(std::move(o)); });
}

void CompareDock::showOutcome(std::shared_ptr<const CompareOutcome> outcome)
{
    m_outcome = std::move(outcome);
    m_error = m_outcome->error;
    if (!m_error.isEmpty()) {
        m_status->setText(m_error);
        m_table->clearDelta();
        emit compared(false);
        return;
    }
    m_status->clear();
    m_a.view->setSnapshot(m_outcome->snapshotA);
    m_b.view->setSnapshot(m_outcome->snapshotB);
    const int wafers = m_outcome->snapshotB ? m_outcome->snapshotB->deviceCount : 1;
    m_wafer->setRange(1, std::max(1, wafers));
    m_table->setDelta(m_outcome->delta);
    applyMode();
    syncView(m_b.view, m_a.view);
    emit compared(true);
}

void CompareDock::applyMode()
{
    const auto mode = Mode(std::max(0, m_mode->currentIndex()));
    std::shared_ptr<const MeshDifference> d;
    if (m_outcome && mode == Mode::SramDifference)
        d = m_outcome->sram;
    else if (m_outcome && mode == Mode::TimeDifference)
        d = m_outcome->time;
    m_b.view->setDifference(d);
}

void CompareDock::syncView(views::MeshView* from, views::MeshView* to)
{
    if (m_syncing || !from->snapshot() || !to->snapshot())
        return;
    m_syncing = true;
    to->setViewState(from->zoomFactor(), from->centreCore());
    m_syncing = false;
}

void CompareDock::retranslate()
{
    setWindowTitle(tr("Compare Layouts"));
    const int mode = m_mode->currentIndex();
    views::setItemTexts(m_mode, {tr("Layouts side by side"), tr("SRAM difference per core (B − A)"),
                                 tr("Time difference per region (B − A)")});
    m_mode->setToolTip(tr("Side by side shows each layout's SRAM use; a difference mode colours B's cores by B − A "
                          "(blue: B lower, red: B higher)."));
    m_mode->setCurrentIndex(std::max(0, mode));
    m_waferLabel->setText(tr("Wafer"));
    m_a.title->setText(m_a.scenario ? tr("A: %1").arg(m_a.label) : tr("A: not pinned yet (Explore > Pin as A)"));
    m_b.title->setText(m_followWindow ? tr("B: the window's current layout") : tr("B: %1").arg(m_b.label));
    if (!m_a.scenario)
        m_a.view->setEmptyText(tr("Pin the current layout as A to compare it with the layouts that follow."));
}

void CompareDock::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDockWidget::changeEvent(event);
}

} // namespace ws
