#!/usr/bin/env bash
# A manual check of the Debian package (not part of CI: it needs root, network and a few minutes):
# makes a fresh, minimal Debian 12 root with debootstrap, installs the .deb into it with apt (its
# Depends only, no Recommends), then starts the app from the installed .desktop entry's Exec line
# under Xvfb in that root and writes a screenshot of the calculator tab; runs the installed occx too.
# The root is unmounted and removed at the end, also on failure.
# Usage: sudo scripts/try-deb-in-debian12.sh [DEB [SCREENSHOT.png]]
#   DEB         default: the newest build/release/occupancy-explorer_*.deb (`cd build/release && cpack -G DEB`)
#   SCREENSHOT  default: occupancy-explorer-debian12.png in the current folder
#   DEBIAN_MIRROR=URL to use another mirror than http://deb.debian.org/debian
set -euo pipefail
deb=${1:-$(ls -t "$(dirname "$0")"/../build/release/occupancy-explorer_*.deb 2> /dev/null | head -n1)}
shot=${2:-occupancy-explorer-debian12.png}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ -f "$deb" ] || { echo "try-deb: no .deb given and none in build/release (cd build/release && cpack -G DEB)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "try-deb: run as root (debootstrap, chroot and mount need it)"; exit 1; }
command -v debootstrap > /dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap

root=$(mktemp -d)
chmod 755 "$root"  # the root's /: apt's download user must be able to enter it
cleanup() {
  for m in dev/shm dev/pts proc; do
    if mountpoint -q "$root/$m"; then umount "$root/$m"; fi
  done
  # Remove the root only when nothing is mounted below it any more.
  if ! findmnt -rn -o TARGET | grep -q "^$root/"; then rm -rf "$root"; else echo "try-deb: still mounted under $root"; fi
}
trap cleanup EXIT
start=$(date +%s)

echo "try-deb: debootstrap --variant=minbase bookworm $root $mirror"
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$root.debootstrap.log" 2>&1 ||
  { tail -n 20 "$root.debootstrap.log"; rm -f "$root.debootstrap.log"; exit 1; }
rm -f "$root.debootstrap.log"
echo "try-deb: Debian 12 root made in $(( $(date +%s) - start )) s"
mount -t proc proc "$root/proc"
mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/root/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

echo "try-deb: apt-get install --no-install-recommends ./$(basename "$deb") xvfb xauth"
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "./root/$(basename "$deb")" xvfb xauth > "$root/root/apt.log" 2>&1 || { tail -n 30 "$root/root/apt.log"; exit 1; }
grep -E "^(Unpacking|Setting up) occupancy-explorer" "$root/root/apt.log" || true
echo "try-deb: $(grep -c '^Setting up' "$root/root/apt.log") packages set up"
if in_root sh -c 'ldd /usr/bin/occupancy-explorer /usr/bin/occx' | grep "not found"; then
  echo "try-deb: FAIL: libraries not found"; exit 1
fi

desktop=$(in_root dpkg -L occupancy-explorer | grep '^/usr/share/applications/.*\.desktop$')
exec_line=$(sed -n 's/^Exec=//p' "$root$desktop" | head -n1 | sed 's/ *%[fFuUdDnNickvm]//g')
echo "try-deb: $desktop: Exec=$exec_line"
in_root occx occupancy --gpu H100-SXM --threads 256 --regs 32
in_root install -d -m 700 /root/xdg-runtime
in_root env XDG_RUNTIME_DIR=/root/xdg-runtime xvfb-run -a -s "-screen 0 1280x800x24" \
  sh -c "$exec_line --tab 'Occupancy calculator' --screenshot /root/screenshot.png"
cp "$root/root/screenshot.png" "$shot"
echo "try-deb: wrote $shot; $(( $(date +%s) - start )) s in all"
