#include "app/explore/layoutexplorer.h"

#include "app/common/placementresult.h"
#include "app/explore/comparedock.h"
#include "app/explore/optimizerunner.h"
#include "app/explore/sweepdock.h"
#include "app/explore/whatittakesdialog.h"

#include <QAction>
#include <QEvent>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>

namespace ws {

LayoutExplorer::LayoutExplorer(QMainWindow* window, const PresetLibrary& presets,
                               std::function<Scenario()> currentScenario)
    : QObject(window), m_window(window), m_presets(presets), m_current(std::move(currentScenario))
{
    m_compare = new CompareDock(presets, window);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_compare);
    m_compare->hide();
    m_sweep = new SweepDock(presets, m_current, window);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_sweep);
    window->tabifyDockWidget(m_compare, m_sweep); // both at the bottom, as tabs when both are shown
    m_sweep->hide();
    m_optimizer = new OptimizeRunner(presets, window);

    m_menu = new QMenu(window);
    m_menu->setObjectName(QStringLiteral("exploreMenu"));
    m_pin = m_menu->addAction(QString(), this, &LayoutExplorer::pinCurrentAsA);
    m_pin->setObjectName(QStringLiteral("pinAsAAction"));
    m_compareAction = m_compare->toggleViewAction();
    m_compareAction->setObjectName(QStringLiteral("compareLayoutsAction"));
    m_menu->addAction(m_compareAction);
    m_menu->addSeparator();
    connect(m_sweep, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && !m_sweepSized) {
            m_sweepSized = true;
            m_window->resizeDocks({m_sweep}, {m_window->height() / 2}, Qt::Vertical);
        }
    });
    m_sweepAction = m_sweep->toggleViewAction();
    m_sweepAction->setObjectName(QStringLiteral("sweepAction"));
    m_menu->addAction(m_sweepAction);
    m_optimize = m_menu->addAction(QString(), this, &LayoutExplorer::optimize);
    m_optimize->setObjectName(QStringLiteral("optimizeLayoutAction"));
    m_menu->addSeparator();
    m_whatItTakesAction = m_menu->addAction(QString(), this, &LayoutExplorer::whatItTakes);
    m_whatItTakesAction->setObjectName(QStringLiteral("whatItTakesAction"));
    // Before the last menu (Help), or at the end.
    const QList<QAction*> menus = window->menuBar()->actions();
    if (menus.isEmpty())
        window->menuBar()->addMenu(m_menu);
    else
        window->menuBar()->insertMenu(menus.last(), m_menu);

    connect(m_sweep, &SweepDock::openAsB, this, [this](const Scenario& b, const QString& label) {
        if (!m_compare->hasA())
            m_compare->pinA(m_current(), tr("the window's layout when the point was opened"));
        m_compare->setB(b, label);
        showCompare();
    });
    connect(m_optimizer, &OptimizeRunner::optimized, this,
            [this](const Scenario& a, const QString& labelA, const Scenario& b, const QString& labelB) {
                m_compare->pinA(a, labelA);
                m_compare->setB(b, labelB);
                showCompare();
            });
    connect(m_optimizer, &OptimizeRunner::failed, this,
            [this](const QString& e) { QMessageBox::warning(m_window, tr("Optimise layout"), e); });
    window->installEventFilter(this);
    retranslate();
}

Scenario LayoutExplorer::withPlacedLayout(Scenario s, const PlacementResult* result)
{
    const bool defects = s.defects.any();
    if (!s.layout && !defects && result)
        s.layout = result->layout();
    return s;
}

void LayoutExplorer::windowScenarioChanged()
{
    m_compare->setWindowScenario(m_current());
}

void LayoutExplorer::pinCurrentAsA()
{
    const Scenario current = m_current();
    m_compare->pinA(current, tr("%1 on %2 as pinned").arg(current.modelPreset, current.hardwarePreset));
    m_compare->followB(current);
    showCompare();
}

void LayoutExplorer::optimize()
{
    m_optimizer->start(m_current());
}

void LayoutExplorer::whatItTakes()
{
    if (!m_whatItTakes)
        m_whatItTakes = new WhatItTakesDialog(m_presets, m_window);
    QString error;
    if (!m_whatItTakes->setScenario(m_current(), &error)) {
        QMessageBox::warning(m_window, tr("What would it take?"), error);
        return;
    }
    m_whatItTakes->show();
    m_whatItTakes->raise();
}

void LayoutExplorer::showCompare()
{
    const bool wasHidden = m_compare->isHidden();
    m_compare->show();
    m_compare->raise();
    if (wasHidden) // room for two heatmaps and the table
        m_window->resizeDocks({m_compare}, {m_window->height() * 11 / 20}, Qt::Vertical);
}

void LayoutExplorer::retranslate()
{
    m_menu->setTitle(tr("E&xplore"));
    m_menu->setAccessibleName(tr("Explore"));
    m_pin->setText(tr("Pin as A"));
    m_pin->setToolTip(tr("Keep the current layout as A; B follows the layout you edit next."));
    m_compareAction->setText(tr("Compare Layouts"));
    m_sweepAction->setText(tr("Sweep…"));
    m_optimize->setText(tr("Optimise Layout…"));
    m_optimize->setToolTip(tr("Search region shapes, layer order and fill for the lowest time per token under the "
                              "SRAM limit; the result opens as B against the default placement as A."));
    m_whatItTakesAction->setText(tr("What Would It Take…"));
    m_whatItTakesAction->setToolTip(tr("Which kernels, speculative decoding and devices reach a target speed per "
                                       "user for the current scenario, and whether it is physically possible"));
}

bool LayoutExplorer::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::LanguageChange)
        retranslate();
    return QObject::eventFilter(watched, event);
}

} // namespace ws
