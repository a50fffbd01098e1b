"""What a phone needs of `doko serve` besides its pages: the home-screen manifest and icon (served
with their types, allowed by the Content-Security-Policy, linked from every page), the night's
session file as a one-tap download that `doko import` reads back, and the dark colours' contrast."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from typer.testing import CliRunner
from web_helpers import app_for, client, deal, joined, post_deal, standings, start_night

from doko_ledger.cli.app import app as cli_app
from doko_ledger.web.common import STATIC
from doko_ledger.web.guard import POLICY


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "ledger.sqlite"
    start_night(path)
    return path


def test_the_manifest_and_the_icon_are_served_with_their_types_even_on_a_private_server(db: Path) -> None:
    phone = client(app_for(db, private=True))
    manifest = phone.get("/static/manifest.webmanifest")
    assert manifest.status_code == 200
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = json.loads(manifest.text)
    assert data["name"] == "doko_ledger" and data["short_name"] == "doko" and data["start_url"] == "/"
    assert re.fullmatch(r"#[0-9a-f]{6}", data["theme_color"])
    assert {icon["type"] for icon in data["icons"]} == {"image/svg+xml", "image/png"}
    for icon in data["icons"]:
        served = phone.get(icon["src"])
        assert served.status_code == 200 and served.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/svg+xml":
            assert served.text.startswith("<svg") and icon["sizes"] == "any"
        else:  # a PNG of the size it says: its IHDR holds width and height
            assert served.content[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = (int.from_bytes(served.content[at : at + 4], "big") for at in (16, 20))
            assert icon["sizes"] == f"{width}x{height}" and width in (192, 512)
    # the policy lets the page load both from its own origin ('self' is the default for manifests and images)
    assert "default-src 'self'" in POLICY and "img-src 'self'" in POLICY
    assert "manifest-src" not in POLICY


@pytest.mark.parametrize("path", ["/", "/join", "/games", "/nights/night", "/nights/night/record"])
def test_every_page_links_the_manifest_the_icon_and_the_theme_colour(db: Path, path: str) -> None:
    page = joined(app_for(db)).get(path)
    assert page.status_code == 200
    manifest = json.loads((Path(STATIC) / "manifest.webmanifest").read_text())
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page.text
    assert '<link rel="icon" href="/static/icon.svg" type="image/svg+xml">' in page.text
    assert '<link rel="apple-touch-icon" href="/static/icon-192.png">' in page.text
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in page.text


def test_the_night_downloads_as_a_session_file_that_imports_with_the_same_standings(db: Path, tmp_path: Path) -> None:
    phone = joined(app_for(db))
    assert post_deal(phone, "night", deal(["Ben", "Clara"], 151)).status_code == 303
    assert post_deal(phone, "night", deal(["Clara", "Dirk"], 90)).status_code == 303
    assert post_deal(phone, "night", {"misdeal": "1"}).status_code == 303
    page = phone.get("/nights/night")
    assert 'href="/nights/night/night.yaml" download' in page.text
    answer = client(app_for(db)).get("/nights/night/night.yaml")  # a watcher may keep it too
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == 'attachment; filename="night.yaml"'
    assert answer.headers["content-type"].startswith("application/yaml")
    kept = tmp_path / "kept.yaml"
    kept.write_text(answer.text, encoding="utf-8")
    other = tmp_path / "other.sqlite"
    imported = CliRunner().invoke(cli_app, ["--db", str(other), "import", str(kept)])
    assert imported.exit_code == 0, imported.output
    before, after = standings(db), standings(other)
    assert len(before["deals"]) == 3
    assert after["table"] == before["table"]
    assert [d["points"] for d in after["deals"]] == [d["points"] for d in before["deals"]]


def test_a_night_that_does_not_exist_has_no_download(db: Path) -> None:
    answer = client(app_for(db)).get("/nights/nowhere/night.yaml")
    assert answer.status_code == 404
    assert "content-disposition" not in answer.headers


def _luminance(colour: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(one: str, two: str) -> float:
    """WCAG 2's contrast ratio of two #rrggbb colours."""
    light, dark = sorted((_luminance(one), _luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _palettes() -> tuple[dict[str, str], dict[str, str]]:
    css = (Path(STATIC) / "doko.css").read_text()
    light = re.search(r":root \{(.*?)\}", css, re.S)
    dark = re.search(r"@media \(prefers-color-scheme: dark\) \{\s*:root \{(.*?)\}", css, re.S)
    assert light and dark, "the stylesheet has a light and a dark palette"

    def colours(block: str) -> dict[str, str]:
        return dict(re.findall(r"--([a-z0-9-]+):\s*(#[0-9a-fA-F]{6})", block))

    return colours(light.group(1)), colours(dark.group(1))


PAIRS = [("ink", "bg"), ("ink", "card"), ("muted", "bg"), ("muted", "card"), ("accent", "card")]
PAIRS += [
    ("accent", "bg"),
    ("accent-ink", "accent"),
    ("bad", "bad-bg"),
    ("warn", "card"),
    ("ink", "field"),
    ("bock", "card"),
    ("ink", "notice-bg"),
    ("ink", "bocked-bg"),
]


@pytest.mark.parametrize(("fore", "back"), PAIRS)
def test_both_palettes_keep_text_at_wcag_aa_contrast(fore: str, back: str) -> None:
    light, dark = _palettes()
    assert set(light) == set(dark), "every colour of the light palette has its dark one"
    for palette in (light, dark):
        assert contrast(palette[fore], palette[back]) >= 4.5, (fore, back, palette[fore], palette[back])


def test_the_contrast_formula_gives_the_known_ratios() -> None:
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48


def test_a_deal_recorded_by_its_facts_offers_no_card_replay_and_a_card_game_links_back(
    db: Path, tmp_path: Path
) -> None:
    phone = joined(app_for(db))
    assert post_deal(phone, "night", deal(["Ben", "Clara"], 151)).status_code == 303
    facts = phone.get("/games/night-01")
    assert facts.status_code == 200 and 'id="replay-link"' not in facts.text
    game = Path(__file__).resolve().parents[2] / "sample_games" / "01-normal.yaml"
    assert CliRunner().invoke(cli_app, ["--db", str(db), "import", str(game)]).exit_code == 0
    game_id = "2026-11-28-kitchen-01-normal"
    assert 'id="replay-link">Replay card by card</a>' in phone.get(f"/games/{game_id}").text
    served = phone.get(f"/games/{game_id}/replay").text
    assert f'<nav class="back" aria-label="back"><a href="/games/{game_id}">← {game_id}</a></nav>' in served
    # the file written for keeping has no server behind it: no link back
    kept = tmp_path / "replay.html"
    exported = CliRunner().invoke(cli_app, ["--db", str(db), "export", game_id, "--format", "html", "-o", str(kept)])
    assert exported.exit_code == 0, exported.output
    assert 'class="back"' not in kept.read_text(encoding="utf-8") and "<a " not in kept.read_text(encoding="utf-8")
