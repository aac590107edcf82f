#include "views/racelane.h"

#include "views/chartformat.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextCursor>
#include <QVBoxLayout>

namespace ws::views {

// The progress bar with the reader's marker (drawn, so the marker can sit anywhere).
class RaceTrack : public QWidget
{
public:
    explicit RaceTrack(QWidget* parent = nullptr)
        : QWidget(parent)
    {
        setMinimumHeight(14);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    QSize sizeHint() const override { return {200, 14}; }

    QColor color;
    double progress = 0;
    double reader = -1;

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const QRectF r = QRectF(rect()).adjusted(1, 3, -1, -3);
        p.setPen(Qt::NoPen);
        p.setBrush(palette().color(QPalette::Mid).lighter(150));
        p.drawRoundedRect(r, 4, 4);
        p.setBrush(color);
        p.drawRoundedRect(QRectF(r.left(), r.top(), r.width() * std::clamp(progress, 0.0, 1.0), r.height()), 4, 4);
        if (reader >= 0) {
            const double x = r.left() + r.width() * std::clamp(reader, 0.0, 1.0);
            p.setPen(QPen(QColor(20, 20, 20), 2));
            p.drawLine(QPointF(x, 0), QPointF(x, height()));
        }
    }
};

RaceLane::RaceLane(QWidget* parent)
    : QWidget(parent)
{
    m_header = new QLabel;
    m_header->setTextFormat(Qt::RichText);
    m_text = new QPlainTextEdit;
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_text->setFrameShape(QFrame::NoFrame);
    QFont textFont = m_text->font();
    textFont.setPointSizeF(textFont.pointSizeF() * 1.25);
    m_text->setFont(textFont);
    m_counter = new QLabel;
    m_counter->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    QFont mono = m_counter->font();
    mono.setStyleHint(QFont::Monospace);
    mono.setFamily(QStringLiteral("monospace"));
    m_counter->setFont(mono);
    m_track = new RaceTrack;
    m_track->setToolTip(tr("Filled: tokens out so far. Black line: where a human reader would be."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_header);
    layout->addWidget(m_track);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_counter);
    setAutoFillBackground(true);
}

void RaceLane::setSystem(const QString& label, const QColor& color, double predictedTokensPerSecond,
                         const QString& tooltip)
{
    m_header->setText(tr("<span style='font-size:13pt; font-weight:600; color:%1'>%2</span>"
                         "&nbsp;&nbsp;<span style='color:#555'>predicted %3 tokens/s</span>")
                          .arg(color.darker(115).name(), label.toHtmlEscaped(),
                               formatSignificant(predictedTokensPerSecond)));
    m_header->setToolTip(tooltip);
    m_track->color = color;
    m_track->update();
    m_text->clear();
    m_revealed = 0;
}

void RaceLane::show(const QStringList& pieces, int revealed, int total, double elapsedSeconds, double tokensPerSecondNow)
{
    revealed = std::clamp(revealed, 0, int(pieces.size()));
    if (revealed < m_revealed) {
        m_text->clear();
        m_revealed = 0;
    }
    if (revealed > m_revealed) {
        QString add;
        for (int i = m_revealed; i < revealed; ++i)
            add += pieces[i];
        QTextCursor c(m_text->document());
        c.movePosition(QTextCursor::End);
        c.insertText(add);
        m_revealed = revealed;
        m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
    }
    const bool done = total > 0 && m_revealed >= total;
    m_counter->setText((done ? QStringLiteral("✓ ") : QString()) + tr("%1 / %2 tokens   %3 tokens/s   %4 s")
                           .arg(m_revealed)
                           .arg(total)
                           .arg(formatSignificant(tokensPerSecondNow), QLocale().toString(elapsedSeconds, 'f', 2)));
    m_track->progress = total > 0 ? double(m_revealed) / total : 0;
    m_track->update();
}

void RaceLane::setReaderFraction(double fraction)
{
    m_track->reader = fraction;
    m_track->update();
}

QString RaceLane::text() const
{
    return m_text->toPlainText();
}

QString RaceLane::counterText() const
{
    return m_counter->text();
}

double RaceLane::progress() const
{
    return m_track->progress;
}

double RaceLane::readerFraction() const
{
    return m_track->reader;
}

} // namespace ws::views
