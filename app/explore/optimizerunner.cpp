#include "app/explore/optimizerunner.h"

#include "app/explore/explorebase.h"

#include "engine/explore/layoutoptimizer.h"

#include <QLocale>
#include <QProgressDialog>
#include <QTimer>

namespace ws {

namespace {
struct OptimizeRun
{
    std::optional<OptimizeResult> result;
    QString error;
};
} // namespace

OptimizeRunner::OptimizeRunner(const PresetLibrary& presets, QWidget* dialogParent)
    : QObject(dialogParent), m_presets(presets), m_parent(dialogParent), m_jobs(this)
{
    m_poll = new QTimer(this);
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, [this] {
        if (m_dialog && m_total && m_total->load() > 0) {
            m_dialog->setMaximum(m_total->load());
            m_dialog->setValue(m_done->load());
        }
    });
    m_jobs.onFailed([this](const QString& e) {
        m_poll->stop();
        if (m_dialog)
            m_dialog->hide();
        emit failed(e);
    });
}

OptimizeRunner::~OptimizeRunner()
{
    if (m_stop)
        m_stop->store(true);
}

void OptimizeRunner::start(const Scenario& current)
{
    QString error;
    const auto base = sweepBaseOf(current, m_presets, &error);
    if (!base) {
        emit failed(error);
        return;
    }
    if (m_stop)
        m_stop->store(true);
    m_stop = std::make_shared<std::atomic<bool>>(false);
    m_done = std::make_shared<std::atomic<int>>(0);
    m_total = std::make_shared<std::atomic<int>>(0);
    if (!m_dialog) {
        m_dialog = new QProgressDialog(m_parent);
        m_dialog->setObjectName(QStringLiteral("optimizeProgress"));
        m_dialog->setAutoClose(false);
        m_dialog->setAutoReset(false);
        m_dialog->setMinimumDuration(0);
        connect(m_dialog, &QProgressDialog::canceled, this, &OptimizeRunner::cancel);
    }
    m_dialog->setWindowTitle(tr("Optimise layout"));
    m_dialog->setLabelText(tr("Searching region shapes, layer order and weight fill of %1 for the lowest time per "
                              "token under the SRAM limit…")
                               .arg(QString::fromStdString(base->model.name)));
    m_dialog->setCancelButtonText(tr("Cancel"));
    m_dialog->setRange(0, 0);
    m_dialog->show();
    m_poll->start();
    m_jobs.start(
        [b = *base, stop = m_stop, done = m_done, total = m_total] {
            OptimizeOptions o;
            o.progress = [&](int d, int t) {
                done->store(d);
                total->store(t);
                return !stop->load();
            };
            auto r = optimizeLayout(b, o);
            if (!r)
                return OptimizeRun{std::nullopt, QString::fromStdString(r.error().text)};
            return OptimizeRun{std::move(*r), QString()};
        },
        [this, current, b = *base](OptimizeRun run) {
            m_poll->stop();
            m_dialog->hide();
            if (!run.result) {
                emit failed(run.error);
                return;
            }
            const OptimizeResult& r = *run.result;
            const QLocale locale;
            emit optimized(scenarioWithLayout(current, b, r.defaultLayout),
                           tr("default placement, %1 ms per token on %2 wafers")
                               .arg(locale.toString(r.defaultMsPerToken, 'f', 4))
                               .arg(r.defaultWafers),
                           scenarioWithLayout(current, b, r.best),
                           tr("optimised (%1 candidates), %2 ms per token on %3 wafers")
                               .arg(r.candidates)
                               .arg(locale.toString(r.bestMsPerToken, 'f', 4))
                               .arg(r.bestWafers));
        });
}

void OptimizeRunner::cancel()
{
    if (m_stop)
        m_stop->store(true);
    m_jobs.cancel();
    m_poll->stop();
    if (m_dialog)
        m_dialog->hide();
}

} // namespace ws
