#!/usr/bin/env bash
# The source tree in .clang-format's style: clang-format --dry-run --Werror over every .h and .cpp under
# engine/, views/, app/ and tests/. Usage: check_format.sh SOURCE_DIR [CLANG_FORMAT]. Prints each file
# that differs (with clang-format's first complaint) and exits 1 when there is any.
set -uo pipefail
root="${1:?usage: check_format.sh SOURCE_DIR [CLANG_FORMAT]}"
tool="${2:-clang-format}"
cd "$root" || exit 2
command -v "$tool" >/dev/null || { echo "format: $tool not found (./install-deps.sh installs clang-format)"; exit 2; }
files=()
while IFS= read -r -d '' file; do files+=("$file"); done < <(
    find engine views app tests -type f \( -name '*.h' -o -name '*.cpp' \) -print0 2>/dev/null | sort -z)
# clang-format names each file that differs in its first complaint ("FILE:LINE:COL: error: ...").
bad=$(printf '%s\0' "${files[@]}" | xargs -0 -n 64 "$tool" --dry-run --Werror 2>&1 |
      sed -nE 's/^([^:]+):[0-9]+:[0-9]+: error: .*/\1/p' | sort -u)
if [ -n "$bad" ]; then
    while IFS= read -r file; do echo "format: $file differs from .clang-format"; done <<<"$bad"
    exit 1
fi
echo "format: ok (${#files[@]} files)"
