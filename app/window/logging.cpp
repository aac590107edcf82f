#include "app/window/logging.h"

#include <QString>
#include <QtGlobal>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace ws {

namespace {

void qtMessageToSpdlog(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    const QByteArray text = message.toUtf8();
    const char* category = context.category && *context.category ? context.category : "qt";
    switch (type) {
    case QtDebugMsg:
        spdlog::debug("[{}] {}", category, text.constData());
        break;
    case QtInfoMsg:
        spdlog::info("[{}] {}", category, text.constData());
        break;
    case QtWarningMsg:
        spdlog::warn("[{}] {}", category, text.constData());
        break;
    case QtCriticalMsg:
        spdlog::error("[{}] {}", category, text.constData());
        break;
    case QtFatalMsg:
        spdlog::critical("[{}] {}", category, text.constData());
        spdlog::default_logger()->flush();
        break; // Qt aborts after a fatal message returns
    }
}

} // namespace

void setupLogging(bool verbose)
{
    auto logger = spdlog::stderr_color_mt("waferscope");
    logger->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
    logger->set_level(verbose ? spdlog::level::debug : spdlog::level::info);
    logger->flush_on(spdlog::level::warn);
    spdlog::set_default_logger(logger);
    qInstallMessageHandler(qtMessageToSpdlog);
}

} // namespace ws
