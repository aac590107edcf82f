#pragma once
// Help > Keyboard Shortcuts: a table of every action of a window that has a
// shortcut (its text and all its key sequences), read from the actions
// themselves when the dialog opens, so it never drifts from the menus.

#include <QDialog>
#include <QList>
#include <QString>

class QTableWidget;

namespace ws {

class ShortcutsDialog : public QDialog
{
    Q_OBJECT

public:
    struct Row
    {
        QString action;    // the action's text, without the mnemonic '&'
        QString shortcuts; // its key sequences in the platform's notation, ", " between them
    };

    explicit ShortcutsDialog(const QWidget* window, QWidget* parent = nullptr);

    // Every action below `window` (menus, toolbars, docks) with at least one shortcut, sorted by text; actions
    // of the same text (Undo, Redo: the layout's and the defects') share one row with the keys of all.
    static QList<Row> rows(const QWidget* window);
    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table = nullptr;
};

} // namespace ws
