#pragma once
// The loader's account of the open model in the chat pane: architecture,
// parameter count, tensor types (share of the file), trained context and the
// memory a conversation needs (weights plus the KV cache at the context it
// was opened for) against the memory available, all from the engine's header
// read (ModelSummary). A view: it formats what it is given.

#include "engine/decode/modelsummary.h"

#include <QLabel>
#include <QLocale>

#include <optional>

namespace ws::views {

class LoaderInfo : public QLabel
{
    Q_OBJECT
public:
    explicit LoaderInfo(QWidget* parent = nullptr);

    // nullopt: no model (the label hides).
    void setSummary(const std::optional<ModelSummary>& summary);
    static QString format(const ModelSummary& summary, const QLocale& locale = QLocale());
    static QString formatBytes(uint64_t bytes, const QLocale& locale = QLocale());

protected:
    void changeEvent(QEvent* event) override;

private:
    std::optional<ModelSummary> m_summary;
};

} // namespace ws::views
