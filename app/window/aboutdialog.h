#pragma once
// Help > About: which WaferScope this is (version, git revision, licence),
// the libraries it links with their versions and licences (BuildInfo), and
// every data source behind the shipped presets and measurements
// (DataSources), so a number on screen can be traced to where it came from.

#include <QDialog>

class QTableWidget;
class QTreeWidget;

namespace ws {

class AboutDialog : public QDialog
{
    Q_OBJECT

public:
    explicit AboutDialog(QWidget* parent = nullptr);

    // For tests: the library table (name, version, licence) and the data source tree (file -> sources).
    QTableWidget* libraryTable() const { return m_libraries; }
    QTreeWidget* sourceTree() const { return m_sources; }
    QString summaryText() const; // the first tab's text: name, version, revision, licence

private:
    QWidget* buildSummary();
    QWidget* buildLibraries();
    QWidget* buildSources();

    QString m_summary;
    QTableWidget* m_libraries = nullptr;
    QTreeWidget* m_sources = nullptr;
};

} // namespace ws
