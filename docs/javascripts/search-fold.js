/*
 * Search without diacritics: "blad" finds what "błąd" finds.
 *
 * Material's search worker (lunr) matches words exactly, so a reader who types Polish without its diacritics, as
 * many do, found nothing. This script changes two kinds of message on their way from the page to that worker:
 *
 *  - Setting up the index: every document whose title or text changes when its diacritics are folded away gets the
 *    folded copy in two extra fields, `title_folded` (weighted like the title) and `text_folded` (like the text).
 *    Results show only the title and the text, so snippets keep their Polish letters.
 *  - Each query: every word with diacritics is also asked for folded, so "błąd", "blad" and even "bład" all match.
 *
 * Material sends the index as soon as it has fetched it. This script runs right after Material's bundle and
 * normally sees that message go by; if the index went out first, the first query sends the folded index again
 * before it is asked. Everything stays on this site: the index is the one Material fetched, or the same file again.
 */
(function () {
  "use strict";

  var SETUP = 0;  // Material's SearchMessageType.SETUP
  var QUERY = 2;  // Material's SearchMessageType.QUERY
  var NOT_DECOMPOSED = { "ł": "l", "Ł": "L" };  // letters Unicode does not split into base + mark

  function fold(text) {
    return text
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[łŁ]/g, function (letter) { return NOT_DECOMPOSED[letter]; });
  }

  function isSetup(message) {
    return message && message.type === SETUP && message.data && message.data.config &&
      Array.isArray(message.data.docs);
  }

  function isQuery(message) {
    return message && message.type === QUERY && typeof message.data === "string";
  }

  /* The index with folded fields added; the original objects are left as Material made them. */
  function foldedIndex(data) {
    var fields = Object.assign({}, data.config.fields);
    fields.title_folded = Object.assign({}, fields.title);
    fields.text_folded = Object.assign({}, fields.text);
    var docs = data.docs.map(function (doc) {
      var copy = Object.assign({}, doc);
      if (typeof doc.title === "string" && fold(doc.title) !== doc.title) copy.title_folded = fold(doc.title);
      if (typeof doc.text === "string" && fold(doc.text) !== doc.text) copy.text_folded = fold(doc.text);
      return copy;
    });
    return Object.assign({}, data, { config: Object.assign({}, data.config, { fields: fields }), docs: docs });
  }

  /* "błąd narzędzia" becomes "błąd narzędzia blad narzedzia"; a query without diacritics is left alone. */
  function foldedQuery(query) {
    var extra = query.split(/\s+/).filter(function (word) { return word && fold(word) !== word; }).map(fold);
    return extra.length ? query + " " + extra.join(" ") : query;
  }

  function pageConfig() {
    return JSON.parse(document.getElementById("__config").textContent);
  }

  function indexUrl() {
    return new URL("search/search_index.json", new URL(pageConfig().base + "/", location.href)).href;
  }

  var send = Worker.prototype.postMessage;
  var folded = new WeakSet();   // workers that have the folded index
  var pending = new WeakMap();  // worker -> queries waiting for the folded index to be sent

  function sendFoldedIndexThen(worker, message) {
    var queue = pending.get(worker);
    if (queue) {
      queue.push(message);
      return;
    }
    pending.set(worker, [message]);
    fetch(indexUrl())
      .then(function (response) { return response.json(); })
      .then(function (data) {
        var options = { suggest: (pageConfig().features || []).indexOf("search.suggest") >= 0 };  // as Material sets it
        send.call(worker, { type: SETUP, data: Object.assign(foldedIndex(data), { options: options }) });
        folded.add(worker);
      })
      .catch(function (error) { console.warn("search-fold: the folded index could not be set up", error); })
      .then(function () {
        var waiting = pending.get(worker) || [];
        pending.delete(worker);
        waiting.forEach(function (query) { send.call(worker, query); });
      });
  }

  Worker.prototype.postMessage = function (message) {
    var rest = Array.prototype.slice.call(arguments, 1);
    if (isSetup(message)) {
      folded.add(this);
      return send.apply(this, [{ type: SETUP, data: foldedIndex(message.data) }].concat(rest));
    }
    if (isQuery(message)) {
      var query = { type: QUERY, data: foldedQuery(message.data) };
      if (!folded.has(this)) return sendFoldedIndexThen(this, query);
      return send.apply(this, [query].concat(rest));
    }
    return send.apply(this, arguments);
  };
})();
