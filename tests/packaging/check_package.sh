#!/usr/bin/env bash
# Builds the .deb from an already built tree (cpack) and checks it: the control
# fields and file list (dpkg-deb --info/--contents), the desktop file and
# AppStream metainfo (desktop-file-validate, appstreamcli validate), the MIME
# type and man page, then unpacks it into a scratch folder (dpkg-deb -x) and
# runs the unpacked programs there with a clean environment and no source
# tree: waferscope-cli --version and place, waferscope --screenshot offscreen.
#   check_package.sh BUILD_DIR SCRATCH_DIR VERSION SOURCE_DIR
set -euo pipefail
build=$1 scratch=$2 version=$3 source=$4
id=io.github.waferscope.WaferScope

fail() { echo "check_package: $*" >&2; exit 1; }
has() { grep -qE -- "$2" <<<"$1" || fail "$3"; }

rm -rf "$scratch"
mkdir -p "$scratch/home"
cd "$scratch"
if ! cpack --config "$build/CPackConfig.cmake" -B "$scratch/out" >cpack.log 2>&1; then
    cat cpack.log >&2
    fail "cpack failed"
fi
deb=$(ls out/*.deb)
echo "package: $deb ($(stat -c %s "$deb") bytes)"

info=$(dpkg-deb --info "$deb")
has "$info" "^ Package: waferscope$" "no Package field"
has "$info" "^ Version: $version$" "Version is not $version"
has "$info" "^ Architecture: amd64$" "no Architecture"
has "$info" "^ Maintainer: .+<.+@.+>" "no Maintainer with an address"
has "$info" "^ Section: science$" "no Section"
has "$info" "^ Homepage: https://" "no Homepage"
has "$info" "^ Description: .+" "no Description"
depends=$(sed -n 's/^ Depends: //p' <<<"$info")
# dpkg-shlibdeps found the libraries the programs link.
for lib in libqt6widgets6 libqt6charts6 libqt6svg6 libavcodec libavformat libswscale libgif7 libspdlog libfmt libc6 libstdc++6; do
    [[ ", $depends" == *", $lib"* ]] || fail "Depends lacks $lib: $depends"
done

contents=$(dpkg-deb --contents "$deb" | awk '{print $6}')
for path in ./usr/bin/waferscope ./usr/bin/waferscope-cli \
    ./usr/share/applications/$id.desktop ./usr/share/metainfo/$id.metainfo.xml \
    ./usr/share/mime/packages/$id.xml ./usr/share/icons/hicolor/scalable/apps/$id.svg \
    ./usr/share/icons/hicolor/16x16/apps/$id.png ./usr/share/icons/hicolor/48x48/apps/$id.png \
    ./usr/share/icons/hicolor/256x256/apps/$id.png ./usr/share/man/man1/waferscope-cli.1.gz \
    ./usr/share/doc/waferscope/copyright ./usr/share/doc/waferscope/CHANGELOG.md \
    ./usr/share/doc/waferscope/sources.md; do
    grep -qxF "$path" <<<"$contents" || fail "the package lacks $path"
done
if grep -vE '^\./(usr/?)?' <<<"$contents" | grep -q .; then fail "files outside /usr"; fi
if grep -qE '/(tst_|bench_)' <<<"$contents"; then fail "test or benchmark binaries in the package"; fi

dpkg-deb -x "$deb" root
desktop-file-validate "root/usr/share/applications/$id.desktop"
appstreamcli validate --no-net --explain "root/usr/share/metainfo/$id.metainfo.xml"
xmllint --noout "root/usr/share/mime/packages/$id.xml"
grep -q '<glob pattern="\*.waferscope"/>' "root/usr/share/mime/packages/$id.xml" || fail "no *.waferscope glob"
grep -q '^MimeType=application/x-waferscope;$' "root/usr/share/applications/$id.desktop" || fail "desktop file opens no scenarios"
man=$(gzip -dc root/usr/share/man/man1/waferscope-cli.1.gz)
has "$man" '^\.TH WAFERSCOPE-CLI 1 .*WaferScope '"$version" "man page has no title with the version"
for command in generate place predict render record; do has "$man" "^\.SS $command$" "man page lacks $command"; done
has "$man" '^\.B \\-\\-defect\\-rate' "man page lacks place's options"
if command -v man >/dev/null && ! man -l root/usr/share/man/man1/waferscope-cli.1.gz >/dev/null 2>man.err; then
    cat man.err >&2
    fail "man cannot format the page"
fi

# The unpacked programs, away from the build and source trees: a user's shell, nothing else.
run() { env -i HOME="$scratch/home" PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"; }
bin=$scratch/root/usr/bin
for program in waferscope-cli waferscope; do
    line=$(run "$bin/$program" --version)
    [[ $line =~ ^$program\ $version\ \(git\ ([0-9a-f]{10}(-dirty)?|unknown)\)$ ]] || fail "$program --version said '$line'"
    echo "$line"
done
placed=$(run "$bin/waferscope-cli" place --model llama-3.1-70b --hardware wse3 --json)
has "$placed" '"devices":[1-9]' "place printed no devices: $placed"
has "$placed" '"sram_used_bytes":[1-9]' "place printed no SRAM use: $placed"
# No path into the source tree is compiled in: presets and translations are embedded.
if grep -qF "$source/resources" "$bin/waferscope-cli" "$bin/waferscope"; then fail "a binary refers to $source/resources"; fi
run "$bin/waferscope" --screenshot "$scratch/shot.png" 2>screenshot.log || { cat screenshot.log >&2; fail "--screenshot failed"; }
[[ $(head -c 8 "$scratch/shot.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "the screenshot is not a PNG"
[[ $(stat -c %s "$scratch/shot.png") -gt 20000 ]] || fail "the screenshot is nearly empty"
echo "check_package: ok"
