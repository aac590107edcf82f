// AboutDialog: the version and revision, every linked library with its
// version and licence, every shipped data file with its cited sources, and
// the whole dialog in zh_CN.
#include "app/common/buildinfo.h"
#include "app/common/datasources.h"
#include "app/common/languagemanager.h"
#include "app/window/aboutdialog.h"
#include "tests/common/testmodels.h"

#include <QDir>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTreeWidget>

using namespace ws;

namespace {

QStringList column(const QTableWidget* table, int c)
{
    QStringList out;
    for (int r = 0; r < table->rowCount(); ++r)
        out << table->item(r, c)->text();
    return out;
}

} // namespace

class TestAboutDialog : public QObject
{
    Q_OBJECT

private slots:
    void showsVersionAndRevision()
    {
        AboutDialog dialog;
        QVERIFY(dialog.summaryText().contains(BuildInfo::version()));
        QVERIFY(dialog.summaryText().contains(BuildInfo::revision()));
        QVERIFY(dialog.summaryText().contains(QStringLiteral("GPL-3.0-or-later")));
    }

    void listsLibrariesWithVersionsAndLicences()
    {
        AboutDialog dialog;
        const QTableWidget* table = dialog.libraryTable();
        const QStringList names = column(table, 0);
        for (const char* required : {"Qt", "Eigen", "spdlog", "FFmpeg"})
            QVERIFY2(names.contains(QLatin1String(required)), required);
        const int qt = int(names.indexOf(QStringLiteral("Qt")));
        QCOMPARE(table->item(qt, 1)->text(), QString::fromLatin1(qVersion()));
        QVERIFY(table->item(qt, 2)->text().contains(QStringLiteral("LGPL-3.0")));
        for (int r = 0; r < table->rowCount(); ++r)
            QVERIFY2(!table->item(r, 1)->text().isEmpty() && !table->item(r, 2)->text().isEmpty(),
                     qPrintable(names.at(r)));
    }

    void listsEveryDataSource()
    {
        AboutDialog dialog;
        const QTreeWidget* tree = dialog.sourceTree();
        const QList<DataSourceFile> files = DataSources::shipped();
        QCOMPARE(tree->topLevelItemCount(), int(files.size()));
        int measurements = 0;
        for (int i = 0; i < tree->topLevelItemCount(); ++i) {
            const QTreeWidgetItem* item = tree->topLevelItem(i);
            QCOMPARE(item->text(0), files.at(i).file);
            QCOMPARE(item->childCount(), int(files.at(i).sources.size()));
            for (int s = 0; s < item->childCount(); ++s)
                QCOMPARE(item->child(s)->text(0), files.at(i).sources.at(s));
            measurements += item->text(0).startsWith(QStringLiteral("measurements/")) ? 1 : 0;
        }
        // resources/measurements: seven calibration sets (WaferLLM's prefill the seventh), the files of reference
        // rows (development and frozen check sets, docs/validation.md) and the providers' API prices: every one
        const QStringList onDisk = QDir(wstest::sourcePath(QStringLiteral("resources/measurements")))
                                       .entryList({QStringLiteral("*.json")}, QDir::Files);
        QVERIFY(onDisk.size() >= 10);
        QCOMPARE(measurements, int(onDisk.size()));
    }

    void translatedIntoChinese()
    {
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        AboutDialog dialog;
        QCOMPARE(dialog.windowTitle(), QStringLiteral("关于 WaferScope"));
        const auto* tabs = dialog.findChild<QTabWidget*>();
        QVERIFY(tabs);
        QCOMPARE(tabs->tabText(1), QStringLiteral("库"));
        QCOMPARE(tabs->tabText(2), QStringLiteral("数据来源"));
        QCOMPARE(dialog.libraryTable()->horizontalHeaderItem(2)->text(), QStringLiteral("许可证"));
        QVERIFY(dialog.summaryText().contains(QStringLiteral("许可证")));
        languages.setLanguage(QStringLiteral("en"));
    }
};

QTEST_MAIN(TestAboutDialog)
#include "tst_aboutdialog.moc"
