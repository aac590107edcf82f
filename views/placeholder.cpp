// Keeps the library non-empty until the first view lands.
namespace ws::views { int placeholderSymbol() { return 0; } }
