// The validation protocol in the git history (docs/validation.md): check_validation_history.sh run on this
// checkout. It needs the checkout's git history, which CI always has (WS_REQUIRE: a failure in CI, a skip
// elsewhere, saying why); a shallow clone counts as none.
#include "tests/common/testmodels.h"
#include "tests/common/testskips.h"

#include <QProcess>
#include <QTest>

class TestValidationHistory : public QObject
{
    Q_OBJECT
private slots:
    void historyKeepsTheProtocol()
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral("bash"),
                {wstest::sourcePath(QStringLiteral("tests/layering/check_validation_history.sh")),
                 wstest::sourcePath(QStringLiteral("."))});
        QVERIFY(p.waitForFinished(120000));
        const QByteArray out = p.readAll();
        std::fputs(out.constData(), stdout);
        // 77: no git history (or a shallow one) to check.
        WS_REQUIRE(p.exitCode() != 77, QString::fromUtf8(out.trimmed()));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, out.constData());
    }
};

QTEST_APPLESS_MAIN(TestValidationHistory)
#include "tst_validation_history.moc"
