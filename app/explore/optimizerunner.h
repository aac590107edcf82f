#pragma once
// Layout > Optimise in the window: the engine's layout optimiser
// (engine/explore/layoutoptimizer.h) over the window's scenario on a worker
// thread through JobTracker, with a progress dialog whose Cancel stops it.
// The result is two scenarios: the default placement (A) and the fastest
// layout found (B), for the compare dock.

#include "app/common/jobtracker.h"
#include "app/scenario/scenario.h"

#include <QObject>

#include <atomic>
#include <memory>

class QProgressDialog;
class QTimer;
class QWidget;

namespace ws {

class PresetLibrary;

class OptimizeRunner : public QObject
{
    Q_OBJECT

public:
    OptimizeRunner(const PresetLibrary& presets, QWidget* dialogParent);
    ~OptimizeRunner() override;

    void start(const Scenario& current);
    void cancel();
    bool isRunning() const { return m_jobs.isBusy(); }

signals:
    void optimized(const Scenario& a, const QString& labelA, const Scenario& b, const QString& labelB);
    void failed(const QString& error);

private:
    const PresetLibrary& m_presets;
    QWidget* m_parent;
    QProgressDialog* m_dialog = nullptr;
    QTimer* m_poll = nullptr;
    std::shared_ptr<std::atomic<int>> m_done;
    std::shared_ptr<std::atomic<int>> m_total;
    std::shared_ptr<std::atomic<bool>> m_stop;
    JobTracker m_jobs;
};

} // namespace ws
