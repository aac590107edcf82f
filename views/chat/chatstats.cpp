#include "views/chat/chatstats.h"

#include <QStringList>

#include <cmath>

namespace ws::views {

QString ChatStats::formatSeconds(double seconds, const QLocale& locale)
{
    if (!(seconds >= 0) || !std::isfinite(seconds))
        return tr("n/a");
    if (seconds <
        0.0001) // the real figure, however small: a GPU's fixed costs per token are a few µs to a fraction of a ms
        return tr("%1 µs").arg(locale.toString(seconds * 1e6, 'f', seconds < 0.00001 ? 1 : 0));
    if (seconds < 0.01)
        return tr("%1 ms").arg(locale.toString(seconds * 1e3, 'f', 1));
    if (seconds < 1.0)
        return tr("%1 ms").arg(locale.toString(seconds * 1e3, 'f', 0));
    if (seconds < 60.0)
        return tr("%1 s").arg(locale.toString(seconds, 'f', 2));
    const int minutes = int(seconds / 60.0);
    const int rest = int(std::lround(seconds - minutes * 60.0));
    return tr("%1 min %2 s").arg(minutes).arg(rest, 2, 10, QLatin1Char('0'));
}

QString ChatStats::formatRate(double tokensPerSecond, const QLocale& locale)
{
    const int decimals = tokensPerSecond < 10 ? 2 : (tokensPerSecond < 100 ? 1 : 0);
    return tr("%1 tokens/s").arg(locale.toString(tokensPerSecond, 'f', decimals));
}

bool ChatStats::readingPrompt(const SessionSnapshot& s)
{
    return s.state == TurnState::Running && s.generatedTokens == 0 && s.promptTokensToEvaluate > 0 &&
           s.promptEvaluatedTokens < s.promptTokensToEvaluate;
}

QString ChatStats::format(const SessionSnapshot& s, const QLocale& locale)
{
    if (readingPrompt(s))
        return tr("reading the prompt: %1 of %2 tokens")
            .arg(locale.toString(s.promptEvaluatedTokens), locale.toString(s.promptTokensToEvaluate));
    QStringList parts;
    if (s.reusedPromptTokens > 0)
        parts << tr("%1 tokens (prompt %2, %3 of them from the KV cache)")
                     .arg(locale.toString(s.generatedTokens), locale.toString(s.promptTokens),
                          locale.toString(s.reusedPromptTokens));
    else
        parts << tr("%1 tokens (prompt %2)").arg(locale.toString(s.generatedTokens), locale.toString(s.promptTokens));
    if (s.droppedMessages > 0)
        parts << tr("the %1 oldest messages were left out to fit the context of %2 tokens")
                     .arg(locale.toString(s.droppedMessages), locale.toString(s.contextTokens));
    if (s.promptTokensPerSecond > 0)
        parts << tr("prompt read at %1").arg(formatRate(s.promptTokensPerSecond, locale));
    if (s.cpuTokensPerSecond > 0)
        parts << tr("%1 on this CPU").arg(formatRate(s.cpuTokensPerSecond, locale));
    if (s.generatedTokens > 0)
        parts << tr("first token %1").arg(formatSeconds(s.firstTokenSeconds, locale));
    QStringList predicted;
    for (const SystemPace& system : s.systems) {
        if (system.tokensPerSecondPerUser > 0 && s.generatedTokens > 0)
            predicted << tr("%1 %2").arg(QString::fromStdString(system.name),
                                         formatSeconds(system.secondsForTokens(s.generatedTokens), locale));
    }
    if (!predicted.isEmpty())
        parts << tr("predicted: %1").arg(predicted.join(QStringLiteral(", ")));
    switch (s.finishReason) {
    case TurnEnd::Stopped:
        parts << tr("stopped");
        break;
    case TurnEnd::TokenLimit:
        parts << tr("token limit reached");
        break;
    case TurnEnd::ContextFull:
        parts << (s.contextTokens > 0 ? tr("context full (%1 tokens)").arg(locale.toString(s.contextTokens))
                                      : tr("context full"));
        break;
    case TurnEnd::None:
    case TurnEnd::EndOfGeneration:
    case TurnEnd::StopString:
    case TurnEnd::Error:
        break;
    }
    return parts.join(QStringLiteral(" · "));
}

} // namespace ws::views
