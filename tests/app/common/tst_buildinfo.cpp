// BuildInfo: the project version from CMake, the git revision of the checkout
// it was built from, the linked libraries' versions; `--version` of both
// programs prints them without needing a display.
#include "app/common/buildinfo.h"
#include "tests/common/clirunner.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <Eigen/Core>
#include <spdlog/version.h>

extern "C" {
#include <libavutil/avutil.h>
}

using namespace ws;

namespace {

// What git says about the source tree now, or empty when it is not a checkout (a source tarball).
QString gitHead()
{
    QProcess git;
    git.start(QStringLiteral("git"), {QStringLiteral("-C"), wstest::sourceDir(), QStringLiteral("rev-parse"),
                                      QStringLiteral("--short=10"), QStringLiteral("HEAD")});
    if (!git.waitForFinished(10000) || git.exitCode() != 0)
        return {};
    return QString::fromUtf8(git.readAllStandardOutput()).trimmed();
}

} // namespace

class TestBuildInfo : public QObject
{
    Q_OBJECT

private slots:
    void versionIsTheProjectVersion()
    {
        QCOMPARE(BuildInfo::version(), QStringLiteral(WAFERSCOPE_TEST_VERSION));
        QCOMPARE(BuildInfo::generator(), QStringLiteral("WaferScope ") + BuildInfo::versionText());
        QCOMPARE(BuildInfo::versionText(),
                 QStringLiteral(WAFERSCOPE_TEST_VERSION " (git %1)").arg(BuildInfo::revision()));
    }

    void revisionIsTheCheckoutsCommit()
    {
        const QString head = gitHead();
        // CI builds from a clone: there, a tree git cannot read fails.
        WS_REQUIRE(!head.isEmpty(), QStringLiteral("a git checkout at ") + wstest::sourceDir());
        // The build's commit (plus "-dirty" when tracked files had changes then).
        QVERIFY2(QRegularExpression(QStringLiteral("^[0-9a-f]{10}(-dirty)?$")).match(BuildInfo::revision()).hasMatch(),
                 qPrintable(BuildInfo::revision()));
        QVERIFY2(BuildInfo::revision().startsWith(head), qPrintable(BuildInfo::revision() + " vs HEAD " + head));
    }

    void librariesNameTheirVersionsAndLicences()
    {
        const QList<LibraryInfo> libraries = BuildInfo::libraries();
        QStringList names;
        for (const LibraryInfo& l : libraries) {
            names << l.name;
            QVERIFY2(!l.version.isEmpty() && !l.licence.isEmpty() && l.url.startsWith("https://"), qPrintable(l.name));
        }
        for (const char* required : {"Qt", "Qt Charts", "Eigen", "spdlog", "FFmpeg", "giflib"})
            QVERIFY2(names.contains(QLatin1String(required)), required);
        const auto find = [&](const QString& name) {
            return *std::find_if(libraries.begin(), libraries.end(),
                                 [&](const LibraryInfo& l) { return l.name == name; });
        };
        QCOMPARE(find("Qt").version, QString::fromLatin1(qVersion()));
        QCOMPARE(find("Eigen").version,
                 QStringLiteral("%1.%2.%3").arg(EIGEN_WORLD_VERSION).arg(EIGEN_MAJOR_VERSION).arg(EIGEN_MINOR_VERSION));
        QCOMPARE(find("spdlog").version,
                 QStringLiteral("%1.%2.%3").arg(SPDLOG_VER_MAJOR).arg(SPDLOG_VER_MINOR).arg(SPDLOG_VER_PATCH));
        QVERIFY(find("FFmpeg").version.startsWith(QString::fromUtf8(av_version_info())));
        QVERIFY(find("FFmpeg").licence.contains("GPL")); // LGPL or GPL, as FFmpeg reports its own build
        QCOMPARE(BuildInfo::licence(), QStringLiteral("GPL-3.0-or-later"));
    }

    void versionOptionOfBothPrograms_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("name");
        QTest::newRow("cli") << wstest::cliBinary() << "waferscope-cli";
        QTest::newRow("app") << wstest::appBinary() << "waferscope";
    }
    void versionOptionOfBothPrograms()
    {
        QFETCH(QString, program);
        QFETCH(QString, name);
        QProcess process;
        process.setProcessEnvironment(wstest::headlessEnvironment()); // no display: --version needs none
        process.start(program, {QStringLiteral("--version")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(process.readAllStandardOutput()), name + " " + BuildInfo::versionText() + "\n");
    }
};

QTEST_GUILESS_MAIN(TestBuildInfo)
#include "tst_buildinfo.moc"
