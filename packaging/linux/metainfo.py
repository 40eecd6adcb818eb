"""Write the AppStream metadata the .deb installs: the file in the repository plus
the addresses only a published build knows (the project page and the screenshot).

The screenshot must be a public https address. A release built by the GitHub
workflow uses the picture in this repository at the commit being built
(raw.githubusercontent.com/OWNER/REPO/SHA/packaging/screenshots/table.png);
elsewhere TABLETOP_REPO_URL (https://github.com/OWNER/REPO) and TABLETOP_REF name it.
Without either the file is written as it is, with no screenshot.

    python3 packaging/linux/metainfo.py OUT_FILE
"""

from __future__ import annotations

import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "io.tabletop.Tabletop.metainfo.xml"
SCREENSHOT = "packaging/screenshots/table.png"
CAPTION = "A game in progress: a stolen creature died and went to its owner's graveyard, " \
          "and the inspector cites the rule"


def addresses(env: dict[str, str]) -> tuple[str, str] | None:
    """(project page, raw-file base) for the repository the build comes from, or None."""
    repo_url = env.get("TABLETOP_REPO_URL", "").rstrip("/")
    ref = env.get("TABLETOP_REF", "")
    if not repo_url and env.get("GITHUB_REPOSITORY"):
        server = env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
        repo_url = f"{server}/{env['GITHUB_REPOSITORY']}"
        ref = ref or env.get("GITHUB_SHA", "")
    if not repo_url.startswith("https://github.com/") or not ref:
        return None
    slug = repo_url.removeprefix("https://github.com/")
    return repo_url, f"https://raw.githubusercontent.com/{slug}/{ref}/"


def build(env: dict[str, str]) -> str:
    tree = ET.parse(SOURCE)
    root = tree.getroot()
    found = addresses(env)
    if found:
        page, raw = found
        url = ET.Element("url", type="homepage")
        url.text = page
        shots = ET.Element("screenshots")
        shot = ET.SubElement(shots, "screenshot", type="default")
        ET.SubElement(shot, "caption").text = CAPTION
        ET.SubElement(shot, "image", type="source", width="1600", height="1000").text = \
            raw + SCREENSHOT
        # AppStream's order: after the description and launchable, before the releases
        at = list(root).index(root.find("releases"))  # type: ignore[arg-type]
        root.insert(at, shots)
        root.insert(at, url)
    ET.indent(tree, "  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    Path(sys.argv[1]).write_text(build(dict(os.environ)), encoding="utf-8")
