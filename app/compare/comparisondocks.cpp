#include "app/compare/comparisondocks.h"

#include "app/compare/comparecontroller.h"
#include "app/compare/racesample.h"
#include "views/compare/comparisonpanel.h"
#include "views/compare/tokenrace.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QMenu>

#include <functional>

namespace ws {

namespace {
// Calls back when the dock receives a LanguageChange (a translator was installed or removed).
class LanguageWatcher : public QObject
{
public:
    LanguageWatcher(QObject* parent, std::function<void()> onChange) : QObject(parent), m_onChange(std::move(onChange))
    {
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        // Rebuilt after the event has gone through: the old views may still be receiving it.
        if (event->type() == QEvent::LanguageChange)
            QMetaObject::invokeMethod(this, m_onChange, Qt::QueuedConnection);
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_onChange;
};

class CompareDocks
{
    Q_DECLARE_TR_FUNCTIONS(ws::CompareDocks)

public:
    // The views build their texts once; a language switch rebuilds them (and the dock titles).
    static void retranslate(QDockWidget* panelDock, QDockWidget* raceDock, ComparisonController* controller)
    {
        updateTitles(panelDock, raceDock, controller);
        auto* panel = new views::ComparisonPanel;
        auto* race = new views::TokenRace;
        panelDock->widget()->deleteLater();
        raceDock->widget()->deleteLater();
        panelDock->setWidget(panel);
        raceDock->setWidget(race);
        controller->setViews(panel, race);
    }

    // Each title names the model shown, and says when the panel chose another than the scenario's.
    static void updateTitles(QDockWidget* panelDock, QDockWidget* raceDock, const ComparisonController* controller)
    {
        const QString model = controller->shownModelText();
        panelDock->setWindowTitle(tr("GPU, Groq and wafer compared: %1").arg(model));
        raceDock->setWindowTitle(tr("Token race: %1").arg(model));
    }

    static QDockWidget* dock(QMainWindow* window, const QString& objectName, const QString& title, QWidget* content)
    {
        auto* d = new QDockWidget(title, window);
        d->setObjectName(objectName);
        d->setWidget(content);
        window->addDockWidget(Qt::BottomDockWidgetArea, d);
        return d;
    }
};
} // namespace

ComparisonController* attachComparison(QMainWindow* window, const PresetLibrary& presets, QMenu* viewMenu)
{
    auto* panel = new views::ComparisonPanel;
    auto* race = new views::TokenRace;
    QDockWidget* panelDock = CompareDocks::dock(window, QStringLiteral("comparisonDock"),
                                                CompareDocks::tr("GPU, Groq and wafer compared"), panel);
    QDockWidget* raceDock =
        CompareDocks::dock(window, QStringLiteral("tokenRaceDock"), CompareDocks::tr("Token race"), race);
    // Hidden, and not tabified: a tabified pair keeps its tab bar in the window's layout even when hidden.
    panelDock->hide();
    raceDock->hide();
    if (viewMenu) {
        QAction* showPanel = panelDock->toggleViewAction();
        showPanel->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
        viewMenu->addAction(showPanel);
        viewMenu->addAction(raceDock->toggleViewAction());
    }
    auto* controller = new ComparisonController(presets, panel, race, window);
    controller->setRaceText(RaceSample::pieces(), RaceSample::source());
    QObject::connect(controller, &ComparisonController::snapshotReady, panelDock, [panelDock, raceDock, controller] {
        CompareDocks::updateTitles(panelDock, raceDock, controller);
    });
    controller->recompute();
    auto* filter = new LanguageWatcher(
        panelDock, [panelDock, raceDock, controller] { CompareDocks::retranslate(panelDock, raceDock, controller); });
    panelDock->installEventFilter(filter);
    return controller;
}

} // namespace ws
