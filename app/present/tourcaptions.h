#pragma once
// The captions of the shipped tours, as English source texts in the "Tour"
// translation context. Tour files carry the English text; at display time it
// is looked up with QCoreApplication::translate("Tour", text), so a caption
// follows the interface language (LanguageManager) and switches live.
// tourcaptions.cpp lists every shipped caption with QT_TRANSLATE_NOOP so
// lupdate puts them in translations/*.ts; tst_tour checks that every caption
// of every shipped tour is in that list and translated in zh_CN.
// {name} placeholders are filled after translation with the engine's values
// for what is shown (the stage's values(), formatted in the current locale).

#include <QMap>
#include <QString>
#include <QStringList>

namespace ws {

class TourCaptions
{
public:
    // Names a caption may use in braces: {model}, {hardware}, {devices}, {token_time}, ...
    static const QStringList& placeholders();
    // Every caption of the shipped tours (English source texts).
    static QStringList sourceTexts();
    // `text` translated in the "Tour" context, then each {name} replaced by values[name] ("–" when unknown).
    static QString display(const QString& text, const QMap<QString, QString>& values);
};

} // namespace ws
