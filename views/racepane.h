#pragma once
// The race view: the live session's answer, so far, on every system at once.
// It reads the same session snapshots as the chat pane: this CPU's measured
// time for the tokens produced so far (prompt evaluation and decode steps,
// without pacing waits) against each compared system's predicted time for
// the same tokens (its time to first token plus the rest at its predicted
// tokens per second).

#include "engine/session/sessionsnapshot.h"
#include "views/racechart.h"

#include <QDockWidget>

#include <memory>
#include <vector>

class QLabel;

namespace ws::views {

class RacePane : public QDockWidget
{
    Q_OBJECT
public:
    explicit RacePane(QWidget* parent = nullptr);

    void setSnapshot(std::shared_ptr<const SessionSnapshot> snapshot);
    static std::vector<RaceRow> rowsFor(const SessionSnapshot& snapshot);
    RaceChart* chart() const { return m_chart; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    int m_tokens = 0;
    QLabel* m_caption;
    RaceChart* m_chart;
};

} // namespace ws::views
