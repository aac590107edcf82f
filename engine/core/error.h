#pragma once
// Errors as values. The engine never throws across its API, never exits and
// never prints: a function that can fail returns Expected<T>, which holds
// either the value or an Error with a machine-readable code, a message in
// English, and where it happened (file, byte offset, field). The app layer
// turns an Error into a translated message; the CLI prints message() on one
// line and exits 2.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace ws {

enum class ErrorCode
{
    InvalidArgument, // a nonsense number or option
    NotFound,        // a missing file, preset or key
    Io,              // open/read/write/mmap failed
    Format,          // corrupt, truncated or unsupported file content
    Unsupported,     // valid but not implemented (e.g. an unknown tensor type)
    OutOfRange,      // a value outside what the hardware or model allows
    Cancelled,       // stopped from another thread
};

const char* errorCodeName(ErrorCode code);

struct Error
{
    ErrorCode code = ErrorCode::InvalidArgument;
    std::string text;               // what went wrong, English, no trailing period
    std::string file;               // file involved, if any
    std::optional<uint64_t> offset; // byte offset in file, if any
    std::string field;              // field or key involved, if any

    // One line: "<file>: <field>: <text> (at byte N)".
    std::string message() const;
};

inline Error makeError(ErrorCode code, std::string text, std::string field = {})
{
    Error e;
    e.code = code;
    e.text = std::move(text);
    e.field = std::move(field);
    return e;
}

// Minimal std::expected stand-in (C++23 is not available with GCC 12).
template <typename T> class Expected
{
public:
    Expected(T value) : m_data(std::in_place_index<0>, std::move(value)) {}
    Expected(Error error) : m_data(std::in_place_index<1>, std::move(error)) {}

    bool hasValue() const { return m_data.index() == 0; }
    explicit operator bool() const { return hasValue(); }

    T& value() & { return std::get<0>(m_data); }
    const T& value() const& { return std::get<0>(m_data); }
    T&& value() && { return std::get<0>(std::move(m_data)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(m_data); }
    Error& error() { return std::get<1>(m_data); }

private:
    std::variant<T, Error> m_data;
};

// For functions that return nothing but can fail.
struct Ok
{
};
using Status = Expected<Ok>;

} // namespace ws
