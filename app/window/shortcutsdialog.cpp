#include "app/window/shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHash>
#include <QHeaderView>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ws {

ShortcutsDialog::ShortcutsDialog(const QWidget* window, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto* layout = new QVBoxLayout(this);
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setAccessibleName(tr("Keyboard shortcuts"));
    m_table->setColumnCount(2);
    m_table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const QList<Row> all = rows(window);
    m_table->setRowCount(int(all.size()));
    for (int i = 0; i < all.size(); ++i) {
        m_table->setItem(i, 0, new QTableWidgetItem(all[i].action));
        m_table->setItem(i, 1, new QTableWidgetItem(all[i].shortcuts));
    }
    m_table->resizeColumnsToContents();
    layout->addWidget(m_table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(520, 560);
}

QList<ShortcutsDialog::Row> ShortcutsDialog::rows(const QWidget* window)
{
    // Actions of one text share a row: the Edit menu's Undo (layout edits) and the Defects dock's Undo are one
    // line for the reader, with the keys of both, each once.
    QList<QString> order;
    QHash<QString, QStringList> keysOf;
    QSet<const QAction*> seen;
    for (const QAction* action : window->findChildren<QAction*>()) {
        if (action->shortcuts().isEmpty() || action->isSeparator() || seen.contains(action))
            continue;
        seen.insert(action);
        const QString text = QString(action->text()).remove(QLatin1Char('&'));
        if (!keysOf.contains(text))
            order << text;
        QStringList& keys = keysOf[text];
        for (const QKeySequence& key : action->shortcuts())
            if (const QString native = key.toString(QKeySequence::NativeText); !keys.contains(native))
                keys << native;
    }
    QList<Row> result;
    for (const QString& text : order)
        result.push_back({text, keysOf.value(text).join(QStringLiteral(", "))});
    std::sort(result.begin(), result.end(),
              [](const Row& a, const Row& b) { return a.action.localeAwareCompare(b.action) < 0; });
    return result;
}

} // namespace ws
