#include "app/common/languagemanager.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>

#include <spdlog/spdlog.h>

namespace ws {

LanguageManager::LanguageManager(QObject* parent) : QObject(parent) {}

QStringList LanguageManager::availableLanguages()
{
    return {QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString LanguageManager::nativeName(const QString& code)
{
    if (code == QLatin1String("zh_CN"))
        return QStringLiteral("简体中文");
    return QStringLiteral("English");
}

QString LanguageManager::systemLanguage()
{
    const QLocale locale;
    if (locale.language() == QLocale::Chinese)
        return QStringLiteral("zh_CN");
    return QStringLiteral("en");
}

bool LanguageManager::setLanguage(const QString& code)
{
    if (!availableLanguages().contains(code))
        return false;
    if (m_installed) {
        QCoreApplication::removeTranslator(&m_app);
        QCoreApplication::removeTranslator(&m_qt);
        m_installed = false;
    }
    if (code != QLatin1String("en")) {
        const QString qm = QStringLiteral(":/i18n/waferscope_%1.qm").arg(code);
        if (!m_app.load(qm)) {
            spdlog::warn("translation {} not found; keeping English", qm.toStdString());
            m_language = QStringLiteral("en");
            QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
            emit languageChanged(m_language);
            return false;
        }
        if (!m_qt.load(QLocale(code), QStringLiteral("qtbase"), QStringLiteral("_"),
                       QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            spdlog::debug("Qt's own {} translation not found", code.toStdString());
        QCoreApplication::installTranslator(&m_qt);
        QCoreApplication::installTranslator(&m_app);
        m_installed = true;
    }
    m_language = code;
    // Numbers follow the language too (digit grouping, decimal point).
    QLocale::setDefault(code == QLatin1String("en") ? QLocale(QLocale::English, QLocale::UnitedStates) : QLocale(code));
    spdlog::debug("language: {}", code.toStdString());
    emit languageChanged(code);
    return true;
}

} // namespace ws
