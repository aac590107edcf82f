#pragma once
// A File menu controller on a bare main window, not interactive (no dialogs), whose scenario on stage is `shown`:
// the controller reads it and writes what it opens back to it. For the File menu's and the data exports' tests.

#include "app/scenario/scenario.h"
#include "app/window/filemenucontroller.h"

#include <QMainWindow>

#include <memory>

namespace wstest {

struct FileMenuFixture
{
    std::unique_ptr<QMainWindow> window;
    ws::FileMenuController* controller = nullptr;
    ws::Scenario shown;

    void setUp(const ws::Scenario& start = {})
    {
        window = std::make_unique<QMainWindow>();
        controller = new ws::FileMenuController(window.get());
        controller->setInteractive(false);
        shown = start;
        controller->setScenarioAccess([this] { return shown; }, [this](const ws::Scenario& s) { shown = s; });
    }
    void tearDown()
    {
        window.reset();
        controller = nullptr;
    }
};

} // namespace wstest
