// Research Radar site: facet filtering of card lists and the Pagefind search page.
// Every page reads fully without this script; it only filters and searches.
"use strict";

function setUpFacets(form) {
  const cards = Array.from(document.querySelectorAll("[data-card]"));
  const output = form.querySelector("output");
  const apply = () => {
    const wanted = Array.from(form.querySelectorAll("select"))
      .filter((select) => select.value)
      .map((select) => [select.name, select.value]);
    let shown = 0;
    for (const card of cards) {
      const tokens = (card.dataset.facets || "").split(" ");
      const month = card.dataset.month || "";
      const ok = wanted.every(([name, value]) => {
        if (name === "from") return month >= value;
        if (name === "to") return month <= value;
        return tokens.includes(value);
      });
      card.hidden = !ok;
      if (ok) shown += 1;
    }
    output.value = shown + " / " + cards.length;
  };
  form.hidden = false;
  form.addEventListener("change", apply);
  form.addEventListener("reset", () => setTimeout(apply, 0));
  apply();
}

function setUpSearch(element) {
  if (typeof PagefindUI === "undefined") return;
  // the reports' bundles, one per year, merged into the projects' (site/search.py)
  const mergeIndex = (element.dataset.merge || "")
    .split(" ")
    .filter(Boolean)
    .map((folder) => ({ bundlePath: new URL(folder, document.baseURI).href }));
  const ui = new PagefindUI({
    element: "#search",
    showSubResults: true,
    resetStyles: false,
    mergeIndex,
  });
  const query = new URLSearchParams(window.location.search).get("q");
  if (query) ui.triggerSearch(query);
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form.facets").forEach(setUpFacets);
  const search = document.getElementById("search");
  if (search) setUpSearch(search);
});
