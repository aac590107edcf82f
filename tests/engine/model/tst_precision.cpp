#include "engine/model/precision.h"

#include <QTest>

class TestPrecision : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("bits");
        QTest::newRow("fp32") << "fp32" << 32.0;
        QTest::newRow("bf16") << "bf16" << 16.0;
        QTest::newRow("fp16") << "fp16" << 16.0;
        QTest::newRow("fp8") << "fp8" << 8.0;
        QTest::newRow("int8 counts its Q8_0 scale") << "int8" << 8.5;
        QTest::newRow("int4 counts its Q4_0 scale") << "int4" << 4.5;
    }
    void roundTrip()
    {
        QFETCH(QString, id);
        QFETCH(double, bits);
        const auto p = ws::parsePrecision(id.toStdString());
        QVERIFY(p.has_value());
        QCOMPARE(std::string(ws::precisionId(*p)), id.toStdString());
        QCOMPARE(ws::bitsPerParameter(*p), bits);
    }
    void unknownIsRejected()
    {
        QVERIFY(!ws::parsePrecision("fp12").has_value());
        QVERIFY(!ws::parsePrecision("").has_value());
    }
};

QTEST_GUILESS_MAIN(TestPrecision)
#include "tst_precision.moc"
