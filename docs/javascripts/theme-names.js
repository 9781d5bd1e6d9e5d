// Roles and names for what Material draws outside any template block (WCAG 4.1.2, 4.1.3):
// - a code annotation's marker is a link whose number only CSS shows, so a screen reader finds a link with no name;
// - each code block's copy button sits in its own <nav>, and a page of unnamed, identical navigation landmarks
//   drowns the page's real ones: it is no landmark (the button keeps its own name);
// - "Copied to clipboard" appears in a box outside every landmark that nobody hears: it is a status message.
(function () {
  "use strict";
  const toast = document.querySelector(".md-dialog");
  if (toast) toast.setAttribute("role", "status");
  function name(root) {
    for (const marker of root.querySelectorAll(".md-annotation__index:not([aria-label])")) {
      const number = marker.querySelector("[data-md-annotation-id]");
      marker.setAttribute("aria-label", `Annotation ${number ? number.dataset.mdAnnotationId : ""}`.trim());
    }
    for (const tools of root.querySelectorAll(".md-code__nav:not([role])")) {
      tools.setAttribute("role", "none");
    }
  }
  const drawn = (node) => node.nodeType === 1 && (node.matches(".md-annotation, .md-code__nav")
    || node.querySelector(".md-annotation, .md-code__nav"));
  new MutationObserver((records) => {
    if (records.some((record) => [...record.addedNodes].some(drawn))) name(document);
  }).observe(document.body, { childList: true, subtree: true });
  name(document);
})();
