# Build the Windows bundle and installer, then smoke-test the frozen app.
# Needs: pip install .[package]; Inno Setup (iscc on PATH).
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..\..")
# a native command's failure does not stop PowerShell by itself: check each exit code
function Check($what) { if ($LASTEXITCODE -ne 0) { throw "$what failed (exit $LASTEXITCODE)" } }
$version = python -c "import tomllib; print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])"
Check "reading the version"
python -m PyInstaller --noconfirm --clean --distpath build\dist --workpath build\pyinstaller packaging\tabletop.spec
Check "PyInstaller"
$env:QT_QPA_PLATFORM = "offscreen"
$p = Start-Process -FilePath build\dist\tabletop\tabletop.exe -ArgumentList "--self-test" -Wait -PassThru -NoNewWindow
if ($p.ExitCode -ne 0) { throw "self-test failed" }
# Inno Setup: on PATH, or where its installer (and Chocolatey's) puts it
$iscc = (Get-Command iscc -ErrorAction SilentlyContinue).Source
if (-not $iscc) {
  $iscc = @("${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe", "$env:ProgramFiles\Inno Setup 6\ISCC.exe") |
    Where-Object { Test-Path $_ } | Select-Object -First 1
}
if (-not $iscc) { throw "Inno Setup's iscc was not found (install Inno Setup 6)" }
& $iscc /DAppVersion=$version packaging\windows\tabletop.iss
Check "Inno Setup"
