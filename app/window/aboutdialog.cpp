#include "app/window/aboutdialog.h"

#include "app/common/buildinfo.h"
#include "app/common/datasources.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ws {

namespace {
constexpr int kMaxColumnWidth = 220; // pixels
} // namespace

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("About WaferScope"));
    auto* tabs = new QTabWidget;
    tabs->addTab(buildSummary(), tr("WaferScope"));
    tabs->addTab(buildLibraries(), tr("Libraries"));
    tabs->addTab(buildSources(), tr("Data sources"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs);
    layout->addWidget(buttons);
    resize(900, 540);
}

QString AboutDialog::summaryText() const
{
    return m_summary;
}

QWidget* AboutDialog::buildSummary()
{
    m_summary = tr("<h3>WaferScope %1</h3>"
                   "<p>Built from git revision %2.</p>"
                   "<p>Places a transformer on the core mesh of a wafer-scale engine and shows what every core "
                   "holds.</p><p>Every number comes from the engine and the cited presets and measurements; "
                   "the Data sources tab lists where each came from.</p>"
                   "<p>Licence: %3. This program comes with absolutely no warranty.</p>")
                    .arg(BuildInfo::version(), BuildInfo::revision(), BuildInfo::licence());
    auto* label = new QLabel(m_summary);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    label->setMargin(12);
    return label;
}

QWidget* AboutDialog::buildLibraries()
{
    const QList<LibraryInfo> libraries = BuildInfo::libraries();
    m_libraries = new QTableWidget(int(libraries.size()), 4);
    m_libraries->setHorizontalHeaderLabels({tr("Library"), tr("Version"), tr("Licence"), tr("Web site")});
    for (int row = 0; row < int(libraries.size()); ++row) {
        const LibraryInfo& l = libraries.at(row);
        const QStringList cells{l.name, l.version, l.licence, l.url};
        for (int column = 0; column < int(cells.size()); ++column) {
            auto* item = new QTableWidgetItem(cells.at(column));
            item->setToolTip(cells.at(column));
            m_libraries->setItem(row, column, item);
        }
    }
    m_libraries->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_libraries->verticalHeader()->hide();
    m_libraries->resizeColumnsToContents();
    // FFmpeg's version names its four libraries: long cells are cut short, their tooltips hold all of it.
    for (int column = 0; column < m_libraries->columnCount(); ++column)
        m_libraries->setColumnWidth(column, std::min(m_libraries->columnWidth(column), kMaxColumnWidth));
    m_libraries->horizontalHeader()->setStretchLastSection(true);

    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    auto* note = new QLabel(tr("Versions are those loaded at run time where the library reports one. FFmpeg "
                               "states its own licence, which depends on how it was built."));
    note->setWordWrap(true);
    layout->addWidget(m_libraries);
    layout->addWidget(note);
    return page;
}

QWidget* AboutDialog::buildSources()
{
    m_sources = new QTreeWidget;
    m_sources->setHeaderLabels({tr("File"), tr("Name")});
    for (const DataSourceFile& file : DataSources::shipped()) {
        auto* item = new QTreeWidgetItem(m_sources, {file.file, file.title});
        item->setToolTip(1, file.title);
        for (const QString& source : file.sources) {
            auto* child = new QTreeWidgetItem(item, {source});
            child->setToolTip(0, source);
            child->setFirstColumnSpanned(true);
        }
    }
    m_sources->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);

    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    auto* note = new QLabel(tr("Every shipped preset and measurement file, with the sources its numbers cite."));
    note->setWordWrap(true);
    layout->addWidget(note);
    layout->addWidget(m_sources);
    return page;
}

} // namespace ws
