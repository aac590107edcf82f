// setItemTexts: each item of a combo box gets its text, in order, and keeps its data; the current item stays
// current and no currentIndexChanged is emitted (a retranslate does not change what is chosen).
#include "views/widgets/comboitems.h"

#include <QSignalSpy>
#include <QTest>

using namespace ws;

class TestComboItems : public QObject
{
    Q_OBJECT

private slots:
    void namesEveryItem_data();
    void namesEveryItem();
};

void TestComboItems::namesEveryItem_data()
{
    QTest::addColumn<QStringList>("texts");
    QTest::addColumn<int>("current");
    QTest::newRow("two items, first current") << QStringList{"Shift", "Concat"} << 0;
    QTest::newRow("three items, last current") << QStringList{"Snake", "Row-major", "Column-major"} << 2;
    QTest::newRow("texts with markup characters") << QStringList{"B − A", "&Kill", "%1 cores"} << 1;
}

void TestComboItems::namesEveryItem()
{
    QFETCH(QStringList, texts);
    QFETCH(int, current);
    QComboBox box;
    for (int i = 0; i < texts.size(); ++i)
        box.addItem(QString(), 100 + i); // as the views make them: empty texts, data set
    box.setCurrentIndex(current);
    QSignalSpy changed(&box, &QComboBox::currentIndexChanged);

    views::setItemTexts(&box, texts);

    QCOMPARE(box.count(), texts.size());
    for (int i = 0; i < texts.size(); ++i) {
        QCOMPARE(box.itemText(i), texts[i]);
        QCOMPARE(box.itemData(i).toInt(), 100 + i);
    }
    QCOMPARE(box.currentIndex(), current);
    QCOMPARE(box.currentText(), texts[current]);
    QCOMPARE(changed.count(), 0);
}

QTEST_MAIN(TestComboItems)
#include "tst_comboitems.moc"
