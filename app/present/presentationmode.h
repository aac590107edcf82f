#pragma once
// Presentation mode: View > Present (F11), or `waferscope --present TOUR.json`.
// The window goes full screen with large type, its menus, toolbars, status
// bar and docks out of the way, and a caption bar at the bottom; a
// TourPlayer plays the tour on the window's own pieces (WindowStage). Keys:
// → next, ← back, Space pause, Home start again, Esc (or F11) leave; leaving
// restores the window's layout, font and scenario. Captions follow the
// interface language (a language change shows the caption again, translated).

#include "app/present/tourplayer.h"
#include "app/present/windowstage.h"

#include <QByteArray>
#include <QFont>
#include <QObject>
#include <QPointer>

#include <memory>
#include <vector>

class QAction;
class QLabel;
class QToolBar;

namespace ws {

class PresentationMode : public QObject
{
    Q_OBJECT

public:
    // Parented to parts.window; adds the Present action to the window (the caller puts it in a menu).
    explicit PresentationMode(WindowParts parts);
    ~PresentationMode() override;

    QAction* action() const { return m_action; }
    // The tour the action presents: the first shipped tour unless another was chosen (--present).
    void setTourPath(const QString& path) { m_tourPath = path; }
    QString tourPath() const { return m_tourPath; }
    // Full screen (the default) or the window's size as it is (recordings).
    void setFullScreen(bool fullScreen) { m_fullScreen = fullScreen; }
    // Real-time playback (start()) or time only from player()->advance() (recordings, tests).
    void setAutoPlay(bool autoPlay) { m_autoPlay = autoPlay; }

    // Loads the tour and enters presentation mode; false with the error when the tour is refused.
    bool present(const QString& tourPath, QString* error);
    void leave();
    bool isPresenting() const { return m_player != nullptr; }
    TourPlayer* player() const { return m_player.get(); }
    WindowStage* stage() { return &m_stage; }
    QString captionText() const;

signals:
    void presentingChanged(bool presenting);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void toggle();
    void retranslate();
    void updateBar();
    bool handleKey(int key);
    // Large type on a widget the presentation shows (the stage, the caption bar, a dock a tour step shows), its own
    // font kept to be given back on leaving. The hidden menus, toolbars and docks keep theirs: a font change
    // reaches every widget under the one it is set on, and the whole window's took 5-7 ms each way.
    void enlarge(QWidget* widget);
    void paintOnTheNextTurn();

    WindowStage m_stage;
    QAction* m_action = nullptr;
    QString m_tourPath;
    bool m_fullScreen = true;
    bool m_autoPlay = true;
    std::unique_ptr<TourPlayer> m_player;
    QToolBar* m_bar = nullptr;
    QLabel* m_caption = nullptr;
    QLabel* m_status = nullptr;
    QStringList m_barShown; // the caption, status and width the bar was last laid out for (updateBar)
    // The window as it was before presenting.
    QByteArray m_savedState;
    QByteArray m_savedGeometry;
    QFont m_largeFont;
    struct SavedFont
    {
        QPointer<QWidget> widget;
        bool own = false; // a font set on the widget itself (else it inherits, and gets that back)
        QFont font;
    };
    std::vector<SavedFont> m_savedFonts;
    Scenario m_savedScenario;
    bool m_wasFullScreen = false;
    bool m_wasMaximized = false;
    bool m_wasTurning = false; // the stage turned a portrait wafer before (Wafer mode): so again after leaving
};

} // namespace ws
