#include "engine/session/decodesession.h"

#include "engine/session/snapshotthrottle.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace ws {

namespace {

// Longest single sleep while pacing, so that a stop is seen promptly.
constexpr double kMaxSleepSeconds = 0.010;

double steadySeconds()
{
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

} // namespace

DecodeSession::DecodeSession(DecodeOptions options) : m_options(std::move(options))
{
    if (!m_options.nowSeconds)
        m_options.nowSeconds = steadySeconds;
    if (!m_options.sleepSeconds)
        m_options.sleepSeconds = [](double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); };
}

double DecodeSession::now() const
{
    return m_options.nowSeconds();
}

bool DecodeSession::waitUntil(double startSeconds, double dueSeconds, const StopCheck& shouldStop,
                              SessionSnapshot& current)
{
    bool slept = false;
    for (;;) {
        if (shouldStop && shouldStop())
            return false;
        const double before = now();
        const double left = dueSeconds - (before - startSeconds);
        if (left <= 0) {
            if (slept)
                current.latestWakeSeconds = std::max(current.latestWakeSeconds, -left);
            return true;
        }
        m_options.sleepSeconds(std::min(left, kMaxSleepSeconds));
        current.heldBackSeconds += now() - before;
        slept = true;
    }
}

std::shared_ptr<const SessionSnapshot> DecodeSession::freeze(SessionSnapshot& current) const
{
    if (m_options.meshFrame && current.generatedTokens > 0)
        current.mesh = m_options.meshFrame(current.generatedTokens - 1, current.promptTokens + current.generatedTokens);
    auto frozen = std::make_shared<const SessionSnapshot>(current);
    current.newPieces.clear(); // the next snapshot carries only what comes after this one
    return frozen;
}

std::shared_ptr<const SessionSnapshot> DecodeSession::run(TokenStream& stream, const StopCheck& shouldStop,
                                                          const Publish& publish)
{
    SnapshotThrottle throttle(m_options.maxSnapshotsPerSecond);
    SessionSnapshot current;
    current.requestId = m_options.requestId;
    current.systems = m_options.systems;
    current.promptTokens = stream.promptTokenCount();
    current.droppedMessages = stream.droppedMessageCount();
    current.contextTokens = stream.contextTokenCount();

    const double start = now();
    auto finish = [&](TurnState state, TurnEnd reason) {
        current.state = state;
        current.finishReason = reason;
    };

    // The prompt's progress, published between its blocks (throttled as tokens are); Stop is checked there too.
    double promptDone = 0;
    stream.setPromptProgress([&](int evaluated, int total) {
        current.promptEvaluatedTokens = evaluated;
        current.promptTokensToEvaluate = total;
        promptDone = now();
        current.elapsedSeconds = promptDone - start;
        if (publish && (!m_options.consumerReady || m_options.consumerReady()) &&
            throttle.admit(current.elapsedSeconds))
            publish(freeze(current));
        return !(shouldStop && shouldStop());
    });

    for (int index = 0;; ++index) {
        if (shouldStop && shouldStop()) {
            finish(TurnState::Stopped, TurnEnd::Stopped);
            break;
        }
        const double stepStart = now();
        Expected<TokenStep> step = stream.next();
        const double stepSeconds = now() - stepStart;
        if (index == 0) {
            current.reusedPromptTokens = stream.reusedPromptTokenCount();
            if (promptDone > 0) {
                current.promptSeconds = promptDone - stepStart;
                if (current.promptSeconds > 0)
                    current.promptTokensPerSecond = current.promptTokensToEvaluate / current.promptSeconds;
            }
        }
        if (!step) {
            if (step.error().code == ErrorCode::Cancelled) {
                finish(TurnState::Stopped, TurnEnd::Stopped);
            } else {
                current.error = step.error();
                finish(TurnState::Failed, TurnEnd::Error);
            }
            break;
        }
        if (step->endOfText) {
            // Not a shown token; it may still release held-back bytes.
            if (!step->text.empty()) {
                current.text += step->text;
                current.newPieces.push_back({-1, step->text});
            }
            finish(TurnState::Finished, step->end);
            break;
        }
        if (index == 0)
            current.firstTokenSeconds = stepSeconds;
        else
            current.decodeSeconds += stepSeconds;
        current.generatedTokens = index + 1;
        current.lastToken = step->token;
        current.routing = step->routing;
        if (current.generatedTokens > 1 && current.decodeSeconds > 0)
            current.cpuTokensPerSecond = (current.generatedTokens - 1) / current.decodeSeconds;
        if (m_options.pacer.isPaced() && !waitUntil(start, m_options.pacer.dueSeconds(index), shouldStop, current)) {
            // Stopped while holding this token back: it was never shown.
            current.generatedTokens = index;
            finish(TurnState::Stopped, TurnEnd::Stopped);
            break;
        }
        current.text += step->text;
        current.newPieces.push_back({step->token, std::move(step->text)});
        current.elapsedSeconds = now() - start;
        if (publish && (!m_options.consumerReady || m_options.consumerReady()) &&
            throttle.admit(current.elapsedSeconds))
            publish(freeze(current));
    }

    current.elapsedSeconds = now() - start;
    std::shared_ptr<const SessionSnapshot> last = freeze(current);
    if (publish)
        publish(last);
    return last;
}

} // namespace ws
