#include "app/window/shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
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
    QList<Row> result;
    QSet<const QAction*> seen;
    for (const QAction* action : window->findChildren<QAction*>()) {
        if (action->shortcuts().isEmpty() || action->isSeparator() || seen.contains(action))
            continue;
        seen.insert(action);
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts())
            keys << key.toString(QKeySequence::NativeText);
        result.push_back({QString(action->text()).remove(QLatin1Char('&')), keys.join(QStringLiteral(", "))});
    }
    std::sort(result.begin(), result.end(),
              [](const Row& a, const Row& b) { return a.action.localeAwareCompare(b.action) < 0; });
    return result;
}

} // namespace ws
