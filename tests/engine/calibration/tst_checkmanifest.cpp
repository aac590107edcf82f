// The frozen check sets (docs/validation.md): every shipped measurement file of role "check" is listed in
// resources/measurements/check-manifest.sha256 (sha256sum's format) with the SHA-256 it was frozen with; the file
// on disk and the copy compiled into the engine both hash to it, so an edited check row fails here.
#include "engine/calibration/measurementdata.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <string>

using namespace ws;

namespace {
// The manifest's lines, "<sha256>  <file name>"; blank lines and lines starting with # are ignored.
std::map<std::string, std::string> parseManifest(const QByteArray& text, QString* error)
{
    std::map<std::string, std::string> out;
    for (const QByteArray& raw : text.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const QList<QByteArray> parts = line.simplified().split(' ');
        if (parts.size() != 2 || parts[0].size() != 64) {
            *error = QStringLiteral("bad manifest line: %1").arg(QString::fromUtf8(line));
            return {};
        }
        out[parts[1].toStdString()] = parts[0].toLower().toStdString();
    }
    return out;
}

std::string sha256(const QByteArray& bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().toStdString();
}

// What differs between the manifest and the files (name -> contents): a listed file missing or with another
// hash, and a check file not listed. Empty when they agree.
QStringList mismatches(const std::map<std::string, std::string>& manifest,
                       const std::map<std::string, QByteArray>& files)
{
    QStringList out;
    for (const auto& [name, hash] : manifest) {
        auto it = files.find(name);
        if (it == files.end())
            out << QStringLiteral("%1: listed in the manifest, not shipped").arg(QString::fromStdString(name));
        else if (sha256(it->second) != hash)
            out << QStringLiteral("%1: SHA-256 %2, frozen as %3 (a frozen check row was edited)")
                       .arg(QString::fromStdString(name), QString::fromStdString(sha256(it->second)),
                            QString::fromStdString(hash));
    }
    for (const auto& [name, text] : files) {
        const auto j = nlohmann::json::parse(text.toStdString(), nullptr, false);
        if (j.is_object() && j.contains("role") && j["role"] == "check" && !manifest.count(name))
            out << QStringLiteral("%1: a check file not in the manifest (not frozen)")
                       .arg(QString::fromStdString(name));
    }
    return out;
}

// CTest sets WAFERSCOPE_SOURCE_DIR (tests/CMakeLists.txt); Qt's QT_TESTCASE_SOURCEDIR is
// undefined on the sanitizer legs so that their objects hit ccache from any clone.
QString sourceDir()
{
    return qEnvironmentVariable("WAFERSCOPE_SOURCE_DIR");
}
} // namespace

class TestCheckManifest : public QObject
{
    Q_OBJECT
private slots:
    void anEditedCheckRowIsFound()
    {
        const QByteArray frozen = R"({"id":"c","kind":"reference","role":"check","rows":[{"value":1}]})";
        QString error;
        const QByteArray manifest = QByteArray::fromStdString(sha256(frozen)) + "  check-c.json\n";
        const auto m = parseManifest(manifest, &error);
        QVERIFY(error.isEmpty());
        QVERIFY(mismatches(m, {{"check-c.json", frozen}}).isEmpty());
        QByteArray edited = frozen;
        edited.replace("1", "2");
        const QStringList found = mismatches(m, {{"check-c.json", edited}});
        QCOMPARE(found.size(), 1);
        QVERIFY(found.front().contains(QStringLiteral("edited")));
        // A check file that was never frozen, and a frozen one that is gone.
        QCOMPARE(mismatches({}, {{"check-c.json", frozen}}).size(), 1);
        QCOMPARE(mismatches(m, {}).size(), 1);
        parseManifest("not a hash  x.json\n", &error);
        QVERIFY(!error.isEmpty());
    }

    void shippedCheckFilesMatchTheManifest()
    {
        QVERIFY2(!sourceDir().isEmpty(), "WAFERSCOPE_SOURCE_DIR is unset: run this test through ctest");
        const QDir dir(sourceDir() + QStringLiteral("/resources/measurements"));
        QVERIFY2(dir.exists(), qPrintable(dir.path()));
        std::map<std::string, std::string> manifest;
        QFile manifestFile(dir.filePath(QStringLiteral("check-manifest.sha256")));
        if (manifestFile.exists()) {
            QVERIFY(manifestFile.open(QIODevice::ReadOnly));
            QString error;
            manifest = parseManifest(manifestFile.readAll(), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        std::map<std::string, QByteArray> onDisk;
        for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            onDisk[name.toStdString()] = f.readAll();
        }
        const QStringList disk = mismatches(manifest, onDisk);
        QVERIFY2(disk.isEmpty(), qPrintable(disk.join(QLatin1Char('\n'))));
        // The engine ships what was hashed.
        std::map<std::string, QByteArray> embedded;
        for (const EmbeddedMeasurementFile& f : embeddedMeasurementFiles())
            embedded[std::string(f.name)] = QByteArray(f.text.data(), qsizetype(f.text.size()));
        const QStringList shipped = mismatches(manifest, embedded);
        QVERIFY2(shipped.isEmpty(), qPrintable(shipped.join(QLatin1Char('\n'))));
        std::printf("%zu frozen check file(s)\n", manifest.size());
        for (const auto& [name, hash] : manifest)
            std::printf("  %s  %s\n", hash.c_str(), name.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCheckManifest)
#include "tst_checkmanifest.moc"
