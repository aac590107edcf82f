#pragma once
// Where tests find the real models in shared/models: the environment variable
// WAFERSCOPE_TEST_MODELS, else ../shared/models beside the checkout. A missing model
// (WS_REQUIRE_MODEL, WS_REQUIRE_MODEL_FILE: testskips.h's WS_REQUIRE) fails the test in
// CI (CI=true) and skips it elsewhere, naming the path and the variable.
// The checkout, the default models folder and the built programs come from the
// environment ctest sets (tests/CMakeLists.txt, waferscope_test_environment), so
// test objects hold no absolute path; benchmarks, run by hand, compile them in.

#include "tests/common/testskips.h"

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

inline QString testModelPath(const QString& relative)
{
    return QDir(testModelsDir()).filePath(relative);
}

inline QString sourcePath(const QString& relative)
{
    return QDir(sourceDir()).filePath(relative);
}

inline QString missingModelText(const QString& path)
{
    return QStringLiteral("test model missing: %1 (set WAFERSCOPE_TEST_MODELS to the shared/models folder)").arg(path);
}

} // namespace wstest

// Use in a test function: fails in CI, skips elsewhere, when the file at `path` (a QString under the models
// folder, from wstest::testModelPath) is missing.
#define WS_REQUIRE_MODEL_FILE(path) WS_REQUIRE(QFileInfo::exists(path), wstest::missingModelText(path))

// Use at the top of a test function: resolves `relative` under the models folder into `var` (a std::string),
// or fails (in CI) or skips when it is missing.
#define WS_REQUIRE_MODEL(var, relative)                                                                                \
    const QString var##_q = wstest::testModelPath(QStringLiteral(relative));                                           \
    WS_REQUIRE_MODEL_FILE(var##_q);                                                                                    \
    const std::string var = var##_q.toStdString()
