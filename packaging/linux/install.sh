#!/usr/bin/env bash
# Install a built CipherBench for the current user (no root): the app folder, a `cipherbench`
# command, the menu entry and its icon.
#
#   packaging/linux/install.sh [APP_DIR]         (default: packaging/dist/cipherbench)
#   packaging/linux/install.sh --uninstall
#
# Installs to ~/.local/opt/cipherbench, ~/.local/bin/cipherbench (a symlink; ~/.local/bin must be
# on PATH for the menu entry's Exec=cipherbench), ~/.local/share/applications/cipherbench.desktop
# and ~/.local/share/icons/hicolor/{scalable,256x256}/apps/cipherbench.{svg,png}.
# PREFIX=/usr/local (run as root) installs system-wide instead.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
prefix="${PREFIX:-$HOME/.local}"
opt="$prefix/opt/cipherbench"
bin="$prefix/bin/cipherbench"
apps="$prefix/share/applications"
icons="$prefix/share/icons/hicolor"

refresh() {
    command -v update-desktop-database >/dev/null && update-desktop-database -q "$apps" || true
    command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$icons" || true
}

if [[ "${1:-}" == "--uninstall" ]]; then
    rm -rf "$opt"
    rm -f "$bin" "$apps/cipherbench.desktop" "$icons/scalable/apps/cipherbench.svg" \
        "$icons/256x256/apps/cipherbench.png"
    refresh
    echo "install: removed CipherBench from $prefix"
    exit 0
fi

app_dir="${1:-$root/packaging/dist/cipherbench}"
[[ -x "$app_dir/cipherbench" ]] || { echo "install: no built app in $app_dir (run packaging/build.sh)" >&2; exit 2; }

mkdir -p "$prefix/opt" "$prefix/bin" "$apps" "$icons/scalable/apps" "$icons/256x256/apps"
rm -rf "$opt.new"
cp -a "$app_dir" "$opt.new"
rm -rf "$opt"
mv "$opt.new" "$opt"
ln -sfn "$opt/cipherbench" "$bin"
install -m 0644 "$root/resources/icon.svg" "$icons/scalable/apps/cipherbench.svg"
install -m 0644 "$root/resources/icon.png" "$icons/256x256/apps/cipherbench.png"
install -m 0644 "$here/cipherbench.desktop" "$apps/cipherbench.desktop"
refresh
echo "install: CipherBench in $opt; command $bin; menu entry $apps/cipherbench.desktop"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "install: note: $prefix/bin is not on PATH; add it, or the menu entry cannot start cipherbench" >&2 ;;
esac
