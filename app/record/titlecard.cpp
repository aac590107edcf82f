#include "app/record/titlecard.h"

#include <QDate>
#include <QPainter>

#include <cmath>

namespace ws {

QImage TitleCard::draw(QSize size, const TitleCardText& text, const QPalette& palette)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(palette.color(QPalette::Window));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const int h = size.height();
    const int margin = size.width() / 10;
    const int width = size.width() - 2 * margin;
    const auto font = [&](double fraction, bool bold) {
        QFont f = painter.font();
        f.setPixelSize(std::max(8, int(std::lround(h * fraction))));
        f.setBold(bold);
        return f;
    };
    // Title (up to two lines), a rule in the accent colour, the subtitle; the stamp at the foot.
    const QRect titleRect(margin, int(h * 0.22), width, int(h * 0.30));
    painter.setFont(font(0.075, true));
    painter.setPen(palette.color(QPalette::WindowText));
    painter.drawText(titleRect, Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, text.title);
    const int ruleY = int(h * 0.56);
    painter.fillRect(QRect(size.width() / 2 - width / 6, ruleY, width / 3, std::max(2, h / 180)),
                     palette.color(QPalette::Highlight));
    painter.setFont(font(0.045, false));
    painter.drawText(QRect(margin, ruleY + h / 30, width, int(h * 0.16)),
                     Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, text.subtitle);
    painter.setFont(font(0.026, false));
    painter.setPen(palette.color(QPalette::PlaceholderText));
    painter.drawText(QRect(margin, int(h * 0.86), width, int(h * 0.08)), Qt::AlignHCenter | Qt::AlignVCenter,
                     text.stamp);
    painter.end();
    return image;
}

QString TitleCard::stampLine(const QString& generator)
{
    return QStringLiteral("%1 · %2").arg(generator, QDate::currentDate().toString(Qt::ISODate));
}

int TitleCard::frameCount(double seconds, int fps)
{
    return std::max(0, int(std::lround(seconds * fps)));
}

} // namespace ws
