#include "engine/decode/turnend.h"

namespace ws {

const char* turnEndName(TurnEnd end)
{
    switch (end) {
    case TurnEnd::None:
        return "none";
    case TurnEnd::EndOfGeneration:
        return "end_of_generation";
    case TurnEnd::StopString:
        return "stop_string";
    case TurnEnd::TokenLimit:
        return "max_tokens";
    case TurnEnd::ContextFull:
        return "context_full";
    case TurnEnd::Stopped:
        return "cancelled";
    case TurnEnd::Error:
        return "error";
    }
    return "none";
}

} // namespace ws
