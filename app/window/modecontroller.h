#pragma once
// The window's modes, like an IDE's perspectives: each arranges the same docks
// around the one heatmap (the stage) for one task.
//   Wafer    the heatmap fills the window: no docks, no toolbars; the inspector
//            comes as an overlay on a click and hides itself again
//   Chat     the chat beside the wafer, the full height of the window
//   Compare  the GPU, Groq and wafer comparison at a legible size, the wafer a
//            live thumbnail beside it; no toolbars
//   (these three and Present keep the Dataflow dock hidden on every layer:
//   Space, ← and → still play and step the dataflow)
//   Explore  the workbench: the docks of the window's first layout (inspector,
//            defects, layout, chat), the A/B and sweep docks at the bottom
//   Present  presentation mode (app/present/presentationmode.h): no chrome;
//            leaving it returns to the mode before
// One key each (Alt+1 … Alt+5; Ctrl+1 … Ctrl+5 pick the heatmap's layers) and
// View > Mode. Each mode remembers its own dock layout (QMainWindow::saveState),
// kept in QSettings with the window's; Reset Layout resets the mode in use.

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>

#include <array>
#include <functional>
#include <optional>

class QAction;
class QActionGroup;
class QDockWidget;
class QMainWindow;
class QMenu;
class QSettings;
class QTimer;

namespace ws {

class PresentationMode;

class ModeController : public QObject
{
    Q_OBJECT

public:
    enum class Mode
    {
        Wafer,
        Chat,
        Compare,
        Explore,
        Present,
    };
    static constexpr std::array<Mode, 5> allModes()
    {
        return {Mode::Wafer, Mode::Chat, Mode::Compare, Mode::Explore, Mode::Present};
    }
    static QString modeId(Mode mode); // "wafer", "chat", …: --mode and the settings
    static std::optional<Mode> modeFromId(const QString& id);
    static QString modeName(Mode mode); // translated, with its mnemonic

    struct Parts
    {
        QMainWindow* window = nullptr;
        QDockWidget* chat = nullptr;
        QDockWidget* comparison = nullptr;
        QDockWidget* inspector = nullptr;
        // Docks of the workbench alone (the Dataflow dock, which shows itself with its layer): every mode but
        // Explore keeps them hidden; their actions (Space, ←, → for playback) still work.
        QList<QDockWidget*> workbenchOnly;
        PresentationMode* presentation = nullptr;
        QByteArray defaultState; // the window's first layout (WindowLayout::defaultState), Explore's default
        int stateVersion = 0;
        std::function<void()> restored; // after each restoreState: docks that follow something else (the Dataflow
                                        // dock follows its layer) put themselves right
        std::function<void()> arranged; // once a mode's layout has settled: the heatmap fits its new room
    };

    ModeController(Parts parts, QObject* parent = nullptr);

    Mode mode() const { return m_mode; }
    // Saves the layout of the mode in use and arranges the window for `mode` (its remembered layout, else its
    // default). Present starts presentation mode.
    void setMode(Mode mode);
    // Forgets the remembered layout of the mode in use and arranges its default.
    void resetMode();
    static constexpr double kChatShare = 0.42;  // the chat's part of the window's width in Chat mode
    static constexpr int kThumbnailWidth = 300; // the wafer beside the comparison in Compare mode
    static constexpr int kOverlayHideMs = 6000; // the inspector overlay in Wafer mode hides after this

    QMenu* menu() const { return m_menu; } // View > Mode
    QAction* action(Mode mode) const { return m_actions[size_t(mode)]; }

    // In Wafer mode the inspector floats over the heatmap's corner and hides itself once the pointer has left it
    // for kOverlayHideMs; elsewhere it is shown as a dock. Call when a core is clicked.
    void showInspector();

    void save(QSettings& settings) const;
    // The mode in use and each mode's remembered layout; the window's own state (WindowLayout::restore) is the
    // layout of that mode. False when the settings hold no mode.
    bool restore(const QSettings& settings);

signals:
    void modeChanged(ws::ModeController::Mode mode);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void apply(Mode mode);
    void arrangeDefault(Mode mode);
    void fitDocks(Mode mode); // the default's dock sizes, once the window has its size
    void presentingChanged(bool presenting);
    bool hidesWorkbenchDocks() const;
    void retranslate();
    void check();

    Parts m_parts;
    Mode m_mode = Mode::Explore;
    Mode m_beforePresent = Mode::Explore;
    std::array<QByteArray, 5> m_states; // remembered layouts; empty: the default
    std::array<QAction*, 5> m_actions{};
    QActionGroup* m_group = nullptr;
    QMenu* m_menu = nullptr;
    QTimer* m_overlayTimer = nullptr;
    bool m_entering = false; // setMode(Present) is starting the presentation
};

} // namespace ws
