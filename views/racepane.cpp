#include "views/racepane.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace ws::views {

RacePane::RacePane(QWidget* parent)
    : QDockWidget(parent), m_caption(new QLabel), m_chart(new RaceChart)
{
    setObjectName(QStringLiteral("racePane"));
    m_caption->setWordWrap(true);
    retranslate();
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->addWidget(m_caption);
    layout->addWidget(m_chart);
    layout->addStretch(1);
    setWidget(body);
}

std::vector<RaceRow> RacePane::rowsFor(const SessionSnapshot& s)
{
    std::vector<RaceRow> rows;
    if (s.generatedTokens <= 0)
        return rows;
    rows.push_back({tr("This CPU"), s.firstTokenSeconds + s.decodeSeconds, true});
    for (const SystemPace& system : s.systems) {
        if (system.tokensPerSecondPerUser > 0)
            rows.push_back({QString::fromStdString(system.name), system.secondsForTokens(s.generatedTokens), false});
    }
    return rows;
}

void RacePane::setSnapshot(std::shared_ptr<const SessionSnapshot> snapshot)
{
    if (!snapshot)
        return;
    m_chart->setRows(rowsFor(*snapshot), snapshot->generatedTokens);
    m_tokens = snapshot->generatedTokens;
    retranslate();
}

void RacePane::retranslate()
{
    setWindowTitle(tr("Race"));
    if (m_tokens > 0)
        m_caption->setText(tr("Time for the %1 tokens so far: this CPU measured, the other systems predicted.")
                               .arg(m_tokens));
    else
        m_caption->setText(tr("Time for the answer so far: this CPU measured, the other systems predicted."));
}

void RacePane::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDockWidget::changeEvent(event);
}

} // namespace ws::views
