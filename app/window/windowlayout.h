#pragma once
// How a main window's docks share the screen, for every QDockWidget the window
// has when arrange() runs (docks any part added join in):
// - each dock's content scrolls inside a QScrollArea, so a long panel or a wide
//   chart row never sets the window's minimum size (a content the dock puts in
//   later, as a language switch does, is wrapped again); a dock marked with
//   keepOwnPlace() (the chat: its Send button must never scroll away) and a
//   content that is a scroll area itself are left as they are; a dock shown
//   grows to its content's minimum size as far as the window has room, so it
//   scrolls only on a screen too small for it;
// - the docks of one dock area share one tab group, except those marked; a dock
//   shown from its menu action comes to the front of its group;
// - the window opens at most as large as its screen's available area.
// The arrangement arrange() makes is the default layout: reset() returns to
// it. save() and restore() keep the window's geometry and dock state in the
// QSettings given (the application's organisation and name; tests redirect
// them with QStandardPaths::setTestModeEnabled).

#include <QByteArray>
#include <QObject>
#include <QSize>

class QDockWidget;
class QMainWindow;
class QSettings;

namespace ws {

class WindowLayout : public QObject
{
    Q_OBJECT

public:
    explicit WindowLayout(QMainWindow* window);

    // Not tabified with its area's other docks and its content not scrolled.
    static void keepOwnPlace(QDockWidget* dock);

    // Wraps and tabifies every dock, sizes the window to `preferred` (at least 80 % of a larger screen) bounded by
    // the screen, and records this as the default layout.
    void arrange(QSize preferred);
    void reset();
    void save(QSettings& settings) const;
    // False (and nothing changed) when the settings hold no layout or one that does not apply.
    bool restore(const QSettings& settings);

    // The dock state arrange() recorded (the window's saveState with stateVersion()).
    QByteArray defaultState() const { return m_defaultState; }
    static int stateVersion();
    // The size arrange() was given, before the screen bounded it.
    QSize defaultSize() const { return m_defaultSize; }
    // The window's size bounded by the available area of the screen it is on.
    static QSize boundedToScreen(const QMainWindow* window, QSize preferred);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void wrap(QDockWidget* dock);
    void grow(QDockWidget* dock);
    void tabify();

    QMainWindow* m_window = nullptr;
    QByteArray m_defaultState;
    QSize m_defaultSize;
    QSize m_restoredSize; // applied again once the window is shown (its layout's minimum is known only then)
};

} // namespace ws
