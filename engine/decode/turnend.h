#pragma once
// Why a turn ended: one reason from the generator that decides it, through the
// token stream's last step, to the session snapshot the chat and the CLI read.
// Its own header, so that the stream and the snapshot name it without the
// generator.

namespace ws {

enum class TurnEnd
{
    None,            // not ended yet
    EndOfGeneration, // the model emitted an end-of-generation token (EOS/EOT)
    StopString,      // a stop string matched
    TokenLimit,      // the turn's maxTokens are out
    ContextFull,     // the model's context has no position left
    Stopped,         // stopped by the user (Generator::cancel, Stop in the chat)
    Error            // the turn failed (SessionSnapshot::error says why)
};
// "none", "end_of_generation", "stop_string", "max_tokens", "context_full", "cancelled", "error": the names
// `waferscope-cli generate --json` has always printed as stop_reason.
const char* turnEndName(TurnEnd end);

} // namespace ws
