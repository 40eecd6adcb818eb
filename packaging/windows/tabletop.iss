; Inno Setup script for the Windows installer. Build the bundle first:
;   pyinstaller --noconfirm --distpath build\dist --workpath build\pyinstaller packaging\tabletop.spec
; then: iscc /DAppVersion=0.1.0 packaging\windows\tabletop.iss
#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId={{5B8E4F0E-6A1B-4C55-9E57-7A5D1C0F2B11}
AppName=Tabletop
AppVersion={#AppVersion}
AppPublisher=Tabletop developers
DefaultDirName={autopf}\Tabletop
DefaultGroupName=Tabletop
OutputDir=..\..\build
OutputBaseFilename=tabletop-{#AppVersion}-windows-setup
SetupIconFile=..\icons\tabletop.ico
UninstallDisplayIcon={app}\tabletop.exe
Compression=lzma2
SolidCompression=yes
WizardStyle=modern
LicenseFile=..\..\LICENSE
PrivilegesRequiredOverridesAllowed=dialog

[Files]
Source: "..\..\build\dist\tabletop\*"; DestDir: "{app}"; Flags: recursesubdirs ignoreversion

[Icons]
Name: "{group}\Tabletop"; Filename: "{app}\tabletop.exe"
Name: "{autodesktop}\Tabletop"; Filename: "{app}\tabletop.exe"; Tasks: desktopicon

[Tasks]
Name: "desktopicon"; Description: "Create a desktop shortcut"; GroupDescription: "Shortcuts:"

[Run]
Filename: "{app}\tabletop.exe"; Description: "Start Tabletop"; Flags: nowait postinstall skipifsilent
