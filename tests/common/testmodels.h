#pragma once
// Where tests find the real models in shared/models: the environment variable
// WAFERSCOPE_TEST_MODELS, else ../shared/models beside the checkout. Outside CI
// a missing folder skips the test with a clear message; in CI (CI=true) it fails.
// The checkout, the default models folder and the built programs come from the
// environment ctest sets (tests/CMakeLists.txt, waferscope_test_environment), so
// test objects hold no absolute path; benchmarks, run by hand, compile them in.

#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QTest>

namespace wstest {

// The environment variable `name`, else `fallback` (a path compiled into a benchmark, or empty).
inline QString pathFromEnvironment(const char* name, const char* fallback)
{
    const QByteArray env = qgetenv(name);
    return env.isEmpty() ? QString::fromUtf8(fallback) : QString::fromLocal8Bit(env);
}

#ifdef WAFERSCOPE_SOURCE_DIR
inline constexpr const char* kCompiledSourceDir = WAFERSCOPE_SOURCE_DIR;
inline constexpr const char* kCompiledModelsDir = WAFERSCOPE_DEFAULT_TEST_MODELS;
#else
inline constexpr const char* kCompiledSourceDir = "";
inline constexpr const char* kCompiledModelsDir = "";
#endif

inline QString testModelsDir()
{
    const QByteArray env = qgetenv("WAFERSCOPE_TEST_MODELS");
    return env.isEmpty() ? pathFromEnvironment("WAFERSCOPE_DEFAULT_TEST_MODELS", kCompiledModelsDir)
                         : QString::fromLocal8Bit(env);
}

// The checkout's root folder.
inline QString sourceDir()
{
    return pathFromEnvironment("WAFERSCOPE_SOURCE_DIR", kCompiledSourceDir);
}

// The built waferscope-cli and waferscope programs.
inline QString cliBinary()
{
    return pathFromEnvironment("WAFERSCOPE_CLI_BINARY", "");
}

inline QString appBinary()
{
    return pathFromEnvironment("WAFERSCOPE_APP_BINARY", "");
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
    return QDir(sourceDir()).filePath(relative);
}

} // namespace wstest

// Use at the top of a test function: resolves `relative` under the models
// folder into `var` (a std::string), or skips (fails in CI) when it is missing.
#define WS_REQUIRE_MODEL(var, relative)                                                                                \
    const QString var##_q = wstest::testModelPath(QStringLiteral(relative));                                           \
    if (!QFileInfo::exists(var##_q)) {                                                                                 \
        const QByteArray msg = QByteArray("test model missing: ") + var##_q.toUtf8() +                                 \
                               " (set WAFERSCOPE_TEST_MODELS to the shared/models folder)";                            \
        if (wstest::runningInCi())                                                                                     \
            QFAIL(msg.constData());                                                                                    \
        QSKIP(msg.constData());                                                                                        \
    }                                                                                                                  \
    const std::string var = var##_q.toStdString()
