#include "views/charts/chartcard.h"

#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace ws::views {

ChartCard::ChartCard(QWidget* content, QWidget* parent) : QWidget(parent), m_content(content)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(content);
    // An icon, not a word: a chart's title is centred over the whole card and a word-wide button in the corner
    // covered its end where the card is narrow. The word is its accessible name and its tooltip's first line.
    m_export = new QToolButton(this);
    m_export->setText(tr("Export…"));
    m_export->setAccessibleName(m_export->text());
    m_export->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    m_export->setToolButtonStyle(Qt::ToolButtonIconOnly);
    m_export->setToolTip(m_export->text() + QLatin1Char('\n') +
                         tr("Save this chart as PNG (at a chosen scale) or SVG, or its data as CSV or JSON"));
    m_export->setAutoRaise(true);
    m_export->raise();
    connect(m_export, &QToolButton::clicked, this, &ChartCard::exportRequested);
}

void ChartCard::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_export->adjustSize();
    m_export->move(width() - m_export->width() - 4, 4);
    m_export->raise();
}

} // namespace ws::views
