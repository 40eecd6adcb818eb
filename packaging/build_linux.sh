#!/usr/bin/env bash
# Build the Linux bundle (PyInstaller, one folder), a .tar.gz and a .deb, then
# smoke-test the frozen binary with --self-test offscreen.
# Needs: pip install '.[package]' (PyInstaller), dpkg-deb; icu-devtools, binutils and gcc
# to trim the ICU data. Output in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
# the Python whose packages go into the bundle: PYTHON, else python3 on the PATH
PY=${PYTHON:-python3}
read -r NAME VERSION < <("$PY" -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; print(p["name"], p["version"])')
ARCH=$(dpkg --print-architecture 2>/dev/null || echo amd64)
OUT=${TABLETOP_BUILD_DIR:-build}
rm -rf "$OUT/dist" "$OUT/deb"
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$OUT/dist" --workpath "$OUT/pyinstaller" packaging/tabletop.spec
BUNDLE="$OUT/dist/$NAME"
# only the root and English ICU data (Qt Core links ICU; this app needs no more)
"$PY" packaging/linux/trim_icu.py "$BUNDLE"
# the libraries left behind by plugins the spec leaves out (GTK's, EGLFS's)
"$PY" packaging/linux/prune_libs.py "$BUNDLE"

tar -C "$OUT/dist" -czf "$OUT/$NAME-$VERSION-linux-$ARCH.tar.gz" "$NAME"

DEB="$OUT/deb/${NAME}_${VERSION}_${ARCH}"
mkdir -p "$DEB/DEBIAN" "$DEB/opt/$NAME" "$DEB/usr/bin" "$DEB/usr/share/applications" \
  "$DEB/usr/share/metainfo" "$DEB/usr/share/doc/$NAME"
cp -a "$BUNDLE/." "$DEB/opt/$NAME/"
ln -s "/opt/$NAME/$NAME" "$DEB/usr/bin/$NAME"
cp packaging/linux/tabletop.desktop "$DEB/usr/share/applications/"
# with the project page and the screenshot's public address when the build knows them
"$PY" packaging/linux/metainfo.py "$DEB/usr/share/metainfo/io.tabletop.Tabletop.metainfo.xml"
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$DEB/usr/share/metainfo/io.tabletop.Tabletop.metainfo.xml"
fi
mkdir -p "$DEB/usr/share/mime/packages"
cp packaging/linux/tabletop-mime.xml "$DEB/usr/share/mime/packages/tabletop.xml"
cp LICENSE "$DEB/usr/share/doc/$NAME/copyright"
for size in 16 24 32 48 64 128 256 512; do
  dir="$DEB/usr/share/icons/hicolor/${size}x${size}/apps"
  mkdir -p "$dir"
  cp "packaging/icons/tabletop-$size.png" "$dir/tabletop.png"
done
mkdir -p "$DEB/usr/share/icons/hicolor/scalable/apps"
cp packaging/icons/tabletop.svg "$DEB/usr/share/icons/hicolor/scalable/apps/tabletop.svg"
SIZE_KB=$(du -sk "$DEB/opt" | cut -f1)
# measured from the bundle: the C library version it needs and the system libraries it loads
DEPENDS=$("$PY" packaging/linux/debdeps.py "$BUNDLE")
cat > "$DEB/DEBIAN/control" <<CONTROL
Package: $NAME
Version: $VERSION
Architecture: $ARCH
Maintainer: Tabletop developers <tabletop@users.noreply.invalid>
Installed-Size: $SIZE_KB
Depends: $DEPENDS
Section: games
Priority: optional
Description: Magic: The Gathering table checked by a zone-rules engine
 Drag cards between zones; the engine decides where each card really goes and
 cites the rule, in five rules editions from 1999 to 2016.
CONTROL
dpkg-deb --root-owner-group --build "$DEB" "$OUT/${NAME}_${VERSION}_${ARCH}.deb" >/dev/null

echo "bundle: $BUNDLE ($(du -sm --apparent-size "$BUNDLE" | cut -f1) MB unpacked)"
ls -l "$OUT"/*.tar.gz "$OUT"/*.deb
QT_QPA_PLATFORM=offscreen "$BUNDLE/$NAME" --self-test
