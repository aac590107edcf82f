#pragma once
// Chooses the user-interface language: the app's translations (embedded
// .qm files under ":/i18n") and Qt's own (standard dialogs), installed on the
// application. Switching installs the new translators, which makes Qt send
// LanguageChange to every widget so they retranslate live.

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTranslator>

namespace ws {

class LanguageManager : public QObject
{
    Q_OBJECT

public:
    explicit LanguageManager(QObject* parent = nullptr);

    // Language codes the app has translations for, "en" first (the source language).
    static QStringList availableLanguages();
    // The language's name in that language ("English", "简体中文"), not translated.
    static QString nativeName(const QString& code);
    // The best available language for the system locale.
    static QString systemLanguage();

    QString language() const { return m_language; }
    // Installs the translators for `code` ("en", "zh_CN"); false (and no change) if unknown.
    bool setLanguage(const QString& code);

signals:
    void languageChanged(const QString& code);

private:
    QString m_language = QStringLiteral("en");
    QTranslator m_app;
    QTranslator m_qt;
    bool m_installed = false;
};

} // namespace ws
