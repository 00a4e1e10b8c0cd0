#!/usr/bin/env bash
# Checks what `cmake --install` and `cpack -G DEB` give, from an already-built tree (scripts/test.sh
# builds build/release): installs it into a temporary prefix, checks the file list and the run-time
# search paths, validates the .desktop entry and the AppStream metainfo, runs the installed occx,
# starts the installed .desktop entry's Exec line under Xvfb (X11, temporary XDG folders): once with
# --screenshot (a PNG must come out), once as a user would (alive after 3 s, ends on SIGTERM), then
# builds the .deb and checks its files and that its Depends are Debian packages.
# Usage: scripts/check-install.sh [BUILD_DIR]        (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
[ -f "$build/CMakeCache.txt" ] || { echo "check-install: $build is not a build folder (run scripts/test.sh)"; exit 1; }
app_id=$(sed -n 's/^set(OCCX_APP_ID \([^ )]*\))$/\1/p' CMakeLists.txt)
[ -n "$app_id" ] || { echo "check-install: OCCX_APP_ID not found in CMakeLists.txt"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-install: FAIL: $*"; exit 1; }

# 1. Install into an empty prefix; exactly these files, nothing else (no test or third-party files).
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" > "$tmp/install.log"
expected=(bin/occupancy-explorer bin/occx
          "share/applications/$app_id.desktop"
          "share/icons/hicolor/scalable/apps/$app_id.svg"
          "share/metainfo/$app_id.metainfo.xml")
if [ -f "$build/occx-gpu-worker" ]; then expected+=(libexec/occupancy-explorer/occx-gpu-worker); fi
diff <(printf '%s\n' "${expected[@]}" | sort) <(cd "$prefix" && find . -type f -o -type l | sed 's|^\./||' | sort) ||
  fail "installed files differ from the expected list (< expected, > installed)"
echo "check-install: installed ${#expected[@]} files under a fresh prefix"

# 2. No run-time search path into the build or source tree.
src=$(pwd)
for f in "$prefix"/bin/* "$prefix"/libexec/occupancy-explorer/*; do
  [ -f "$f" ] || continue
  rpath=$(readelf -d "$f" | sed -n 's/.*(\(RPATH\|RUNPATH\)).*\[\(.*\)\]/\2/p')
  case "$rpath" in *"$src"*) fail "$(basename "$f") has RPATH '$rpath' into the source/build tree" ;; esac
  echo "check-install: $(basename "$f"): RPATH '${rpath}'"
done

# 3. The .desktop entry and the metainfo, as installed: zero errors, warnings and infos
#    (--strict); pedantic hints are shown and accepted.
desktop=$prefix/share/applications/$app_id.desktop
desktop-file-validate "$desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net --strict --pedantic "$prefix/share/metainfo/$app_id.metainfo.xml" ||
  fail "appstreamcli validate"
appstreamcli validate-tree --no-net --strict "$prefix" || fail "appstreamcli validate-tree"
version=$("$prefix/bin/occx" --version)
grep -q "<release version=\"$version\"" "$prefix/share/metainfo/$app_id.metainfo.xml" ||
  fail "the metainfo has no <release> for version $version (occx --version)"

# 4. The installed CLI, from a folder outside the tree.
(cd "$tmp" && "$prefix/bin/occx" occupancy --gpu H100-SXM --threads 256 --regs 32) > "$tmp/occx.txt" ||
  fail "installed occx occupancy"
grep -qi "occupancy" "$tmp/occx.txt" || fail "installed occx printed no occupancy: $(cat "$tmp/occx.txt")"
echo "check-install: installed occx: $(grep -i -m1 "occupancy" "$tmp/occx.txt")"

# 5. The Exec line of the installed entry (field codes dropped), found on PATH in the prefix,
#    started under Xvfb with the platform Qt picks by itself (xcb) and XDG folders in the prefix.
exec_line=$(sed -n 's/^Exec=//p' "$desktop" | head -n1 | sed 's/ *%[fFuUdDnNickvm]//g')
read -r -a exec_cmd <<< "$exec_line"
export PATH="$prefix/bin:$PATH"
[ "$(command -v "${exec_cmd[0]}")" = "$prefix/bin/${exec_cmd[0]}" ] ||
  fail "Exec=${exec_line} does not start the installed program"
mkdir -p "$tmp/xdg/config" "$tmp/xdg/cache" "$tmp/xdg/data" "$tmp/xdg/runtime"
chmod 700 "$tmp/xdg/runtime"
shot=$tmp/calculator.png
# shellcheck disable=SC2016  # the inner script's variables are its own
env -u QT_QPA_PLATFORM XDG_CONFIG_HOME="$tmp/xdg/config" XDG_CACHE_HOME="$tmp/xdg/cache" \
    XDG_DATA_HOME="$tmp/xdg/data" XDG_RUNTIME_DIR="$tmp/xdg/runtime" XDG_DATA_DIRS="$prefix/share:/usr/share" \
    xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
      set -u
      shot=$1; shift
      "$@" --tab "Occupancy calculator" --screenshot "$shot" || { echo "screenshot run exited $?"; exit 1; }
      "$@" & pid=$!
      sleep 3
      kill -0 "$pid" 2> /dev/null || { wait "$pid"; echo "the app ended within 3 s (exit $?)"; exit 1; }
      kill -TERM "$pid"
      wait "$pid"; rc=$?
      # Killed by SIGTERM (128 + 15) or exited 0: a clean end; anything else (abort, crash) is not.
      [ "$rc" -eq 143 ] || [ "$rc" -eq 0 ] || { echo "after SIGTERM the app exited $rc"; exit 1; }
      echo "check-install: the Exec line ran 3 s under Xvfb and ended on SIGTERM (exit $rc)"
    ' check "$shot" "${exec_cmd[@]}" || fail "starting the installed .desktop entry's Exec line"
[ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "--screenshot wrote no PNG"
echo "check-install: --screenshot from the Exec line wrote a PNG of $(stat -c %s "$shot") bytes"

# 6. The Debian package: the same files under /usr, Depends naming Debian packages of this system.
(cd "$build" && cpack -G DEB -B "$tmp/deb" > "$tmp/cpack.log") || { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$tmp"/deb/*.deb)
diff <(printf './usr/%s\n' "${expected[@]}" | sort) <(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sort) ||
  fail "the .deb's files differ from the installed ones"
depends=$(dpkg-deb -f "$deb" Depends)
echo "check-install: $(basename "$deb"): Depends: $depends"
for name in $(echo "$depends" | sed 's/([^)]*)//g; s/[,|]/\n/g; s/ //g' | grep -v '^$'); do
  dpkg-query -W -f='${Status}\n' "$name" 2> /dev/null | grep -q "install ok installed" ||
    fail "Depends names '$name', which is no installed Debian package here"
done
# (Qt's print support comes through libqcustomplot2.1-qt6, which depends on it.)
for name in libqt6widgets6 libqt6gui6 libqcustomplot2.1-qt6 libqt6svg6; do
  echo "$depends" | grep -q "\b$name\b" || fail "Depends lacks $name"
done
echo "check-install: ok"
