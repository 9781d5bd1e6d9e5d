"""Walking a page with the keyboard, as a reader without a mouse does: Tab, Shift+Tab, and at every stop the
question whether a sighted reader can see where the focus is.

A stop is visible when the element that shows the focus is drawn (not hidden, not transparent, its opacity
settled) and has an outline in a colour that is not transparent. That element is the focused one, or, for a
visually hidden radio button (Material's content tabs and palette switch), the label the theme draws for it.
"""

from __future__ import annotations

from .accessibility import SETTLED  # Material fades some controls in when focused: judge them once settled

MAX_STOPS = 400  # Tab presses before a walk gives up: every link of the navigation and the page lies on the way

_FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {where: "nothing (the page itself)", visible: false, why: "focus was lost"};
  const hidden = (node) => !node.checkVisibility({opacityProperty: true, visibilityProperty: true})
    || node.getBoundingClientRect().width < 2;
  // A hidden radio button shows its focus on a label: its own, or the one the theme puts right after it.
  const labels = el.tagName === "INPUT" && hidden(el)
    ? [...(el.labels || []), el.nextElementSibling].filter(n => n && n.tagName === "LABEL") : [];
  const shown = labels.find(label => !hidden(label)) || el;
  const style = getComputedStyle(shown);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 1
    && !/rgba\\(.*, 0\\)$|transparent/.test(style.outlineColor);
  const name = (el.getAttribute("aria-label") || el.textContent || el.value || "").trim().replace(/\\s+/g, " ");
  const cls = (el.getAttribute("class") || "").split(/\\s+/).filter(c => c && c !== "focus-visible").slice(0, 2);
  const where = `<${el.tagName.toLowerCase()}${cls.length ? "." + cls.join(".") : ""}> ${JSON.stringify(name.slice(0, 50))}`;
  let why = "";
  if (hidden(shown)) why = "the focused element is not drawn";
  else if (!outline) why = `no focus outline (outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor})`;
  return {where, visible: !why, why};
}"""


class Walk:
    """Tab through a page, recording every stop and every stop where the focus could not be seen."""

    def __init__(self, page):
        self.page = page
        self.stops: list[str] = []
        self.unseen: list[str] = []

    def press(self, key: str) -> dict:
        self.page.keyboard.press(key)
        self.page.wait_for_function(SETTLED)
        focus = self.page.evaluate(_FOCUS)
        self.stops.append(f"{key}: {focus['where']}")
        if not focus["visible"]:
            self.unseen.append(f"after {key} (stop {len(self.stops)}), focus on {focus['where']}: {focus['why']}")
        return focus

    def to(self, selector: str, key: str = "Tab") -> bool:
        """Press `key` until the focused element matches `selector`; False when MAX_STOPS go by without it."""
        for _ in range(MAX_STOPS):
            self.press(key)
            if self.page.evaluate("(s) => document.activeElement.matches(s)", selector):
                return True
        return False

    def focused(self, selector: str) -> bool:
        return self.page.evaluate("(s) => document.activeElement.matches(s)", selector)

    def trail(self, last: int = 8) -> str:
        return " -> ".join(self.stops[-last:])
