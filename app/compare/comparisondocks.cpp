#include "app/compare/comparisondocks.h"

#include "app/compare/comparecontroller.h"
#include "app/compare/racesample.h"
#include "views/comparisonpanel.h"
#include "views/tokenrace.h"

#include <QDockWidget>
#include <QMainWindow>

namespace ws {

namespace {
class CompareDocks
{
    Q_DECLARE_TR_FUNCTIONS(ws::CompareDocks)

public:
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

ComparisonController* attachComparison(QMainWindow* window, const PresetLibrary& presets)
{
    auto* panel = new views::ComparisonPanel;
    auto* race = new views::TokenRace;
    QDockWidget* panelDock = CompareDocks::dock(window, QStringLiteral("comparisonDock"),
                                                CompareDocks::tr("GPU, Groq and wafer compared"), panel);
    QDockWidget* raceDock =
        CompareDocks::dock(window, QStringLiteral("tokenRaceDock"), CompareDocks::tr("Token race"), race);
    window->tabifyDockWidget(panelDock, raceDock);
    panelDock->raise();
    auto* controller = new ComparisonController(presets, panel, race, window);
    controller->setRaceText(RaceSample::pieces(), RaceSample::source());
    controller->recompute();
    return controller;
}

} // namespace ws
