# Build the Windows bundle and installer, then smoke-test the frozen app.
# Needs: pip install .[package]; Inno Setup (iscc on PATH).
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..\..")
$version = python -c "import tomllib; print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])"
python -m PyInstaller --noconfirm --clean --distpath build\dist --workpath build\pyinstaller packaging\tabletop.spec
$env:QT_QPA_PLATFORM = "offscreen"
$p = Start-Process -FilePath build\dist\tabletop\tabletop.exe -ArgumentList "--self-test" -Wait -PassThru -NoNewWindow
if ($p.ExitCode -ne 0) { throw "self-test failed" }
iscc /DAppVersion=$version packaging\windows\tabletop.iss
