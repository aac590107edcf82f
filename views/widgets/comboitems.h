#pragma once
// A combo box's fixed items named in one call, in their order: what a retranslate() does on a language change.
// The items were added with empty texts (and their data) when the box was made; the data and the current
// item stay.

#include <QComboBox>
#include <QStringList>

namespace ws::views {

inline void setItemTexts(QComboBox* box, const QStringList& texts)
{
    Q_ASSERT(texts.size() == box->count()); // one text per item, none left with its old language
    for (int i = 0; i < texts.size(); ++i)
        box->setItemText(i, texts[i]);
}

} // namespace ws::views
