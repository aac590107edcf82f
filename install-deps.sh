#!/usr/bin/env bash
# Installs the Debian 12 packages WaferScope needs to build, test, run and package
# (dpkg-dev for cpack's dpkg-shlibdeps; desktop-file-utils and appstream validate the desktop files;
# clang-format for tst_format, the tree's style check), and the de_DE, fr_FR and tr_TR UTF-8 locales that
# tst_locale runs the CLI and the exports under (generated with localedef from the locales package).
# Idempotent: checks each package with dpkg-query and each locale with `locale -a`, and makes only what is
# missing.
# --fuzz (or WAFERSCOPE_FUZZ=1) adds clang-14 and its compiler-rt (libFuzzer) for the `fuzz` preset.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools libqt6charts6-dev libqt6svg6-dev libqt6opengl6-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools linguist-qt6 libgl-dev libvulkan-dev libxkbcommon-dev
  libeigen3-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libgif-dev
  fonts-wqy-microhei xvfb xauth
  dpkg-dev desktop-file-utils appstream clang-format locales
)
if [ "${1:-}" = "--fuzz" ] || [ "${WAFERSCOPE_FUZZ:-0}" = "1" ]; then
  packages+=(clang-14 libclang-rt-14-dev)
fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
for l in de_DE fr_FR tr_TR; do
  if ! locale -a 2>/dev/null | grep -qix "$l\.utf-\?8"; then
    echo "install-deps: generating the $l.UTF-8 locale"
    $SUDO localedef -i "$l" -f UTF-8 "$l.UTF-8"
  fi
done
