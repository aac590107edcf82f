#pragma once
// A chart (or any widget) with a small export button (an icon) in its
// top-right corner. The card only asks: exportRequested() goes to the app,
// which writes the files (views do no file I/O). content() is what gets drawn
// to PNG/SVG.

#include <QWidget>

class QToolButton;

namespace ws::views {

class ChartCard : public QWidget
{
    Q_OBJECT

public:
    explicit ChartCard(QWidget* content, QWidget* parent = nullptr);

    QWidget* content() const { return m_content; }
    QToolButton* exportButton() const { return m_export; }

signals:
    void exportRequested();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* m_content = nullptr;
    QToolButton* m_export = nullptr;
};

} // namespace ws::views
