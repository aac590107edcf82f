#include "views/compare/racelane.h"

#include "views/charts/chartformat.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextCursor>
#include <QVBoxLayout>

namespace ws::views {

namespace {
// The theme's placeholder grey as an opaque colour for rich text (Qt's default one is the text colour at half
// alpha, which a '#rrggbb' name would turn back into the text colour).
QString quietColorName(const QPalette& palette)
{
    const QColor c = palette.color(QPalette::PlaceholderText);
    const QColor under = palette.color(QPalette::Window);
    const double a = c.alphaF();
    return QColor::fromRgbF(float(c.redF() * a + under.redF() * (1 - a)),
                            float(c.greenF() * a + under.greenF() * (1 - a)),
                            float(c.blueF() * a + under.blueF() * (1 - a)))
        .name();
}
} // namespace

// The progress bar with the reader's marker (drawn, so the marker can sit anywhere).
class RaceTrack : public QWidget
{
public:
    explicit RaceTrack(QWidget* parent = nullptr) : QWidget(parent)
    {
        setMinimumHeight(14);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    QSize sizeHint() const override { return {200, 14}; }

    QColor color;
    double progress = 0;
    double reader = -1;
    std::vector<double> marks; // published paces' positions, 0..1

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
        for (double m : marks) {
            // A diamond outlined in dark grey: where the published figure would have the lane now.
            const double x = r.left() + r.width() * std::clamp(m, 0.0, 1.0);
            const double c = height() / 2.0, d = height() / 2.0 - 1;
            const QPointF diamond[] = {{x, c - d}, {x + d, c}, {x, c + d}, {x - d, c}};
            p.setPen(QPen(QColor(40, 40, 40), 1));
            p.setBrush(Qt::white);
            p.drawPolygon(diamond, 4);
        }
        if (reader >= 0) {
            const double x = r.left() + r.width() * std::clamp(reader, 0.0, 1.0);
            p.setPen(QPen(QColor(20, 20, 20), 2));
            p.drawLine(QPointF(x, 0), QPointF(x, height()));
        }
    }
};

RaceLane::RaceLane(QWidget* parent) : QWidget(parent)
{
    m_header = new QLabel;
    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true); // four lanes share 1280 pixels: the name and speeds wrap rather than widen the lane
    m_text = new QPlainTextEdit;
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_text->setWordWrapMode(QTextOption::WordWrap); // lines break between words, never inside one
    m_text->setFrameShape(QFrame::NoFrame);
    QFont textFont = m_text->font();
    textFont.setPointSizeF(textFont.pointSizeF() * 1.25);
    m_text->setFont(textFont);
    m_counter = new QLabel;
    m_counter->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_counter->setWordWrap(true);
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
                         const QString& tooltip, double firstTokenSeconds)
{
    // The system's colour, a shade towards the text colour of the theme (darker on light, lighter on dark).
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const QColor nameColor = dark ? color.lighter(150) : color.darker(115);
    m_headerBase = tr("<span style='font-size:13pt; font-weight:600; color:%1'>%2</span>"
                      " <span style='color:%4'>predicted %3 tokens/s</span>")
                       .arg(nameColor.name(), label.toHtmlEscaped(), formatSignificant(predictedTokensPerSecond),
                            quietColorName(palette()));
    m_headerTip = tooltip;
    if (firstTokenSeconds > 0) {
        const QString time = firstTokenSeconds < 1 ? tr("%1 ms").arg(formatSignificant(firstTokenSeconds * 1e3))
                                                   : tr("%1 s").arg(formatSignificant(firstTokenSeconds));
        m_headerBase += tr(" <span style='color:%2'>· first token %1</span>").arg(time, quietColorName(palette()));
        m_headerTip += tr("\n\nFirst token: the predicted time to first token for the compared prompt (a wafer: "
                          "the prompt's chunks pipelined through its layers at the pace fitted on WaferLLM's "
                          "measured prefill; a GPU or an LPU: its predictor's prefill of the prompt).");
    }
    m_header->setText(m_headerBase);
    m_header->setToolTip(tooltip);
    setMarks({}, {});
    m_track->color = color;
    m_track->update();
    m_text->clear();
    m_revealed = 0;
}

void RaceLane::show(const QStringList& pieces, int revealed, int total, double elapsedSeconds,
                    double tokensPerSecondNow)
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
    // The counter wraps between its three groups only, never between a number and its unit.
    QStringList groups = tr("%1 / %2 tokens   %3 tokens/s   %4 s")
                             .arg(m_revealed)
                             .arg(total)
                             .arg(formatSignificant(tokensPerSecondNow), QLocale().toString(elapsedSeconds, 'f', 2))
                             .split(QStringLiteral("   "));
    for (QString& g : groups)
        g.replace(QLatin1Char(' '), QChar(0x00A0));
    m_counter->setText((done ? QStringLiteral("✓\u00A0") : QString()) + groups.join(QStringLiteral("   ")));
    m_track->progress = total > 0 ? double(m_revealed) / total : 0;
    m_track->update();
}

void RaceLane::setReaderFraction(double fraction)
{
    m_track->reader = fraction;
    m_track->update();
}

void RaceLane::setMarks(const std::vector<double>& tokensPerSecond, const QStringList& tooltips)
{
    QStringList speeds;
    for (double v : tokensPerSecond)
        speeds << formatSignificant(v);
    m_header->setText(speeds.isEmpty()
                          ? m_headerBase
                          : m_headerBase + tr(" <span style='color:%2'>◇ published %1</span>")
                                               .arg(speeds.join(QStringLiteral(", ")), quietColorName(palette())));
    m_header->setToolTip(tooltips.isEmpty()
                             ? m_headerTip
                             : m_headerTip + QStringLiteral("\n\n") + tooltips.join(QStringLiteral("\n\n")));
    m_track->setToolTip(tooltips.isEmpty()
                            ? tr("Filled: tokens out so far. Black line: where a human reader would be.")
                            : tr("Filled: tokens out so far. Black line: where a human reader would be. ◇: where the "
                                 "published figure would be.\n\n%1")
                                  .arg(tooltips.join(QStringLiteral("\n\n"))));
    setMarkFractions({});
}

void RaceLane::setMarkFractions(const std::vector<double>& fractions)
{
    m_track->marks = fractions;
    m_track->update();
}

const std::vector<double>& RaceLane::markFractions() const
{
    return m_track->marks;
}

QString RaceLane::headerText() const
{
    return m_header->text();
}

QString RaceLane::headerToolTip() const
{
    return m_header->toolTip();
}

QString RaceLane::trackToolTip() const
{
    return m_track->toolTip();
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
