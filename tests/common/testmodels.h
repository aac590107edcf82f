#pragma once
// Where tests find the real models in shared/models: the environment variable
// WAFERSCOPE_TEST_MODELS, else ../shared/models beside the checkout. Outside CI
// a missing folder skips the test with a clear message; in CI (CI=true) it fails.

#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QTest>

namespace wstest {

inline QString testModelsDir()
{
    const QByteArray env = qgetenv("WAFERSCOPE_TEST_MODELS");
    return env.isEmpty() ? QString::fromUtf8(WAFERSCOPE_DEFAULT_TEST_MODELS) : QString::fromLocal8Bit(env);
}

inline bool runningInCi()
{
    return qgetenv("CI") == "true";
}

inline QString testModelPath(const QString& relative)
{
    return QDir(testModelsDir()).filePath(relative);
}

inline QString sourcePath(const QString& relative)
{
    return QDir(QString::fromUtf8(WAFERSCOPE_SOURCE_DIR)).filePath(relative);
}

} // namespace wstest

// Use at the top of a test function: resolves `relative` under the models
// folder into `var` (a std::string), or skips (fails in CI) when it is missing.
#define WS_REQUIRE_MODEL(var, relative)                                                                        \
    const QString var##_q = wstest::testModelPath(QStringLiteral(relative));                                   \
    if (!QFileInfo::exists(var##_q)) {                                                                         \
        const QByteArray msg = QByteArray("test model missing: ") + var##_q.toUtf8() +                         \
                               " (set WAFERSCOPE_TEST_MODELS to the shared/models folder)";                    \
        if (wstest::runningInCi())                                                                             \
            QFAIL(msg.constData());                                                                            \
        QSKIP(msg.constData());                                                                                \
    }                                                                                                          \
    const std::string var = var##_q.toStdString()
