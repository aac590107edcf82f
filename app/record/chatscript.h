#pragma once
// The chat half of a recording: a real model's answer to a prompt, generated
// up front with the decode engine (greedy, on this CPU) through the chat's
// own pipeline (GeneratorSessionModel and runTurn), kept as the text shown
// after each token so frames can stream it in step with the dataflow.

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <optional>

namespace ws {

struct ChatScript
{
    Q_DECLARE_TR_FUNCTIONS(ws::ChatScript)

public:
    QString modelName;          // the model file's name
    QStringList textAfterToken; // [i]: the answer once token i is out (whole UTF-8 characters)
    double cpuTokensPerSecond = 0;

    // Loads a GGUF model or a llama2.c checkpoint (tokenizer beside it) as the chat does and
    // generates up to `tokens` tokens (fewer at end of text).
    static std::optional<ChatScript> generate(const QString& modelPath, const QString& prompt, int tokens,
                                              QString* error);
    // The answer after `token` tokens (0: nothing yet); the whole answer past its end.
    QString textAt(int token) const;
};

} // namespace ws
