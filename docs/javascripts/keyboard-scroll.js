// Every box that scrolls can be reached and scrolled from the keyboard (WCAG 2.1.1), and says what it holds.
// Material makes a code block focusable only when it scrolls sideways and the device can hover; a block cut to its
// first lines (the conversation view), a whole file with line numbers, a wide table or the diagram on a phone
// scroll too. Whether a box scrolls depends on the window, so this follows each box's size; no CSS can.
(function () {
  "use strict";
  const BOXES = ".md-content pre > code, .md-content .highlighttable, .md-content .md-typeset__scrollwrap, " +
    ".md-content .sequence-diagram";

  // The name a screen reader gives the box: its block's title, else what kind of box it is. A group, not a region:
  // a landmark for every code block would bury the page's own landmarks.
  function name(box) {
    const block = box.closest(".highlight");
    const title = block && block.querySelector(".filename");
    const side = box.closest(".exchange-side");
    const label = side && side.querySelector(".exchange-label");
    const raw = box.closest("details.raw-line") ? "Raw line, " : "";
    const text = (title || label || {}).textContent;
    const kind = block ? "code" : "table";
    return text ? `${raw}${text.trim().replace(/\s+/g, " ")} (${kind}, scrolls)` : `${raw}${kind}, scrolls`;
  }

  function scrolls(box) {
    return box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
  }

  function update(box) {
    if (scrolls(box)) {
      box.setAttribute("tabindex", "0");
      if (!box.matches("figure")) {  // a figure is named by its caption already
        box.setAttribute("role", "group");
        box.setAttribute("aria-label", name(box));
      }
      box.dataset.keyboardScroll = "";
    } else if ("keyboardScroll" in box.dataset) {
      for (const attribute of ["role", "aria-label", "data-keyboard-scroll"]) box.removeAttribute(attribute);
      if (!box.matches("pre > code")) box.removeAttribute("tabindex");  // a code block's stays Material's
    }
  }

  const sizes = new ResizeObserver((entries) => entries.forEach((entry) => update(entry.target)));
  // Material removes the tabindex of a code block it does not see scrolling sideways: put it back while it scrolls.
  const kept = new MutationObserver((changes) => changes.forEach((change) => {
    const box = change.target;
    if ("keyboardScroll" in box.dataset && !box.hasAttribute("tabindex") && scrolls(box)) box.setAttribute("tabindex", "0");
  }));

  function init() {
    for (const box of document.querySelectorAll(BOXES)) {
      sizes.observe(box);
      kept.observe(box, { attributes: true, attributeFilter: ["tabindex"] });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
