"""The pages of the app, in navigation order. Adding a page means adding one ``PageSpec`` here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image


@dataclass(frozen=True)
class PageSpec:
    """One page: its script, the i18n keys of its title and one-line blurb, and a Material icon.

    ``workshop_only`` pages are listed only when workshop mode is on (their address opens without it too, and
    says the mode is off); ``host_only`` ones are listed (in the sidebar and on Home) only to the host,
    though their address opens for anyone (behind the host code).
    """

    path: str
    title_key: str
    blurb_key: str
    icon: str
    default: bool = False
    workshop_only: bool = False
    host_only: bool = False


PAGES: list[PageSpec] = [
    PageSpec("pages/home.py", "nav.home", "nav.home.blurb", ":material/home:", default=True),
    PageSpec("pages/compare.py", "nav.compare", "nav.compare.blurb", ":material/view_column:"),
    PageSpec("pages/migration.py", "nav.migration", "nav.migration.blurb", ":material/swap_horiz:"),
    PageSpec("pages/scorecard.py", "nav.scorecard", "nav.scorecard.blurb", ":material/leaderboard:"),
    PageSpec("pages/failure_lab.py", "nav.failure_lab", "nav.failure_lab.blurb", ":material/bug_report:"),
    PageSpec("pages/tokens.py", "nav.tokens", "nav.tokens.blurb", ":material/token:"),
    PageSpec("pages/settings.py", "nav.settings", "nav.settings.blurb", ":material/settings:"),
    PageSpec(
        "pages/instructor.py",
        "nav.instructor",
        "nav.instructor.blurb",
        ":material/co_present:",
        workshop_only=True,
        host_only=True,
    ),
]


def declared_pages() -> list[PageSpec]:
    """Every page, for the navigation to declare, in workshop mode or not.

    An address the navigation does not declare gets Streamlit's own "Page not found" dialog, in English
    whatever the session's language (the Instructor view's, outside workshop mode): declared, the page
    itself says in the session's language that workshop mode is off, and shows nothing of any room.
    """
    return list(PAGES)


def listed_pages(workshop_enabled: bool, *, host: bool) -> list[PageSpec]:
    """The pages to link to: the workshop-only ones only in workshop mode, the host's own only to the host."""
    return [
        spec
        for spec in PAGES
        if (workshop_enabled or not spec.workshop_only) and (host or not spec.host_only)
    ]


@lru_cache(maxsize=1)
def favicon() -> Image:
    """A small drawn favicon, served by the app itself.

    Streamlit turns a Material-icon page icon into a favicon fetched from fonts.gstatic.com; setting
    this image as the page icon keeps every request on the app's own server.
    """
    from PIL import Image, ImageDraw

    icon = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    draw = ImageDraw.Draw(icon)
    draw.rounded_rectangle((2, 2, 62, 62), radius=14, fill="#2f6f9f")
    for left, height in ((14, 22), (28, 34), (42, 14)):  # three bars: a prompt growing turn by turn
        draw.rectangle((left, 52 - height, left + 8, 52), fill="#fbfaf7")
    return icon
