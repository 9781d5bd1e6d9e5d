// "Copy page" (overrides/partials/page-actions.html): puts this page's Markdown rendition, index.md beside
// index.html (mkdocs-llmstxt writes it), on the clipboard. The file comes from this site, when the button is
// pressed; nothing else is requested. Without JavaScript the button stays hidden.
(function () {
  "use strict";

  function say(status, text) {
    status.textContent = text;
    clearTimeout(status.clearing);
    status.clearing = setTimeout(() => { status.textContent = ""; }, 4000);
  }

  async function markdownOf(url) {
    const response = await fetch(url, { cache: "no-cache" });
    if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}`);
    return response.text();
  }

  // ClipboardItem with a promise keeps the press's user activation while the file loads (Safari requires it);
  // writeText is the fallback where ClipboardItem is missing.
  async function copy(url) {
    if (window.ClipboardItem && navigator.clipboard && navigator.clipboard.write) {
      const blob = markdownOf(url).then((text) => new Blob([text], { type: "text/plain" }));
      await navigator.clipboard.write([new ClipboardItem({ "text/plain": blob })]);
    } else {
      await navigator.clipboard.writeText(await markdownOf(url));
    }
  }

  function setUp(button) {
    const status = button.parentElement.querySelector(".page-copy-status");
    const url = new URL(button.dataset.markdown, location.href);
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        await copy(url);
        say(status, "Page copied as Markdown");
      } catch (error) {
        say(status, `Could not copy (${error.message}); the Markdown is at ${url.href}`);
      }
    });
  }

  document.querySelectorAll("button.page-copy[data-markdown]").forEach(setUp);
})();
