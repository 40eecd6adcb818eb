#!/usr/bin/env bash
# Build Tabletop.app and a .dmg on macOS, then smoke-test the frozen app.
# Needs: pip install '.[package]'; hdiutil (part of macOS).
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION=$(python3 -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
python3 -m PyInstaller --noconfirm --clean --distpath build/dist --workpath build/pyinstaller packaging/tabletop.spec
APP=build/dist/Tabletop.app
QT_QPA_PLATFORM=offscreen "$APP/Contents/MacOS/tabletop" --self-test
rm -rf build/dmg && mkdir -p build/dmg
cp -R "$APP" build/dmg/
ln -s /Applications build/dmg/Applications
hdiutil create -volname "Tabletop $VERSION" -srcfolder build/dmg -ov -format UDZO \
  "build/tabletop-$VERSION-macos.dmg"
