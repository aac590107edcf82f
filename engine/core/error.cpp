#include "engine/core/error.h"

namespace ws {

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::InvalidArgument:
        return "invalid argument";
    case ErrorCode::NotFound:
        return "not found";
    case ErrorCode::Io:
        return "I/O error";
    case ErrorCode::Format:
        return "format error";
    case ErrorCode::Unsupported:
        return "unsupported";
    case ErrorCode::OutOfRange:
        return "out of range";
    case ErrorCode::Cancelled:
        return "cancelled";
    }
    return "error";
}

std::string Error::message() const
{
    std::string out;
    if (!file.empty())
        out += file + ": ";
    if (!field.empty())
        out += field + ": ";
    out += text;
    if (offset)
        out += " (at byte " + std::to_string(*offset) + ")";
    return out;
}

} // namespace ws
