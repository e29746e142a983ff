"""The words a page shows of its own while it opens, in the reader's language.

Voilà writes its progress in English while it runs a page's notebook («Running console...»,
«Executing 1 of 1») and its widget manager writes «Loading widget...» where a widget is about to
be drawn. On a Russian page these are said in Russian: a small script (`script`) watches the page
and rewrites each of them as it appears. On any page it also drops the tooltip "null" that
ipywidgets 8 gives a control's label when the control has no tooltip (its `DescriptionView`).

The screens' and the lessons' templates put the script first in the page's head (their servers
hand it over in Voilà's resources: `resources`); a page served with Voilà's own template gets it
from the notebook's output (`show`), in time for the widgets' placeholders (Voilà's progress is
written before any output).
"""

from __future__ import annotations

import json

from strategia.core.i18n import Lang

# (what Voilà or its widget manager writes, as a JavaScript pattern; the Russian, $1 for a group)
RUSSIAN = [
    (r"^Running .*\.\.\.$", "Открываю страницу…"),
    (r"^Executing (\d+) of (\d+)$", "Выполняется $1 из $2"),
    (r"^Reading (\d+) of (\d+)$", "Читается $1 из $2"),
    (r"^Loading widget\.\.\.$", "Загрузка…"),
    (r"^Error displaying widget: model not found$", "Элемент страницы не найден"),
    (r"^Error displaying widget$", "Элемент страницы не показан"),
]

_JS = """(function (words) {
  if (window.sgPageWords) return;
  window.sgPageWords = true;
  const rules = words.map(([p, t]) => [new RegExp(p), t]);
  const fix = (node) => {
    const said = node.data.trim();
    if (!said || said.length > 80) return;
    for (const [re, t] of rules) {
      if (re.test(said)) {
        node.data = said.replace(re, t);
        return;
      }
    }
  };
  const walk = (root) => {
    if (root.nodeType === Node.TEXT_NODE) return fix(root);
    if (root.nodeType !== Node.ELEMENT_NODE) return;
    const it = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (it.nextNode()) fix(it.currentNode);
  };
  const untitled = (e) => {
    if (e.nodeType === Node.ELEMENT_NODE && e.getAttribute("title") === "null") {
      e.removeAttribute("title");
    }
  };
  const clean = (root) => {
    if (root.nodeType !== Node.ELEMENT_NODE) return;
    untitled(root);
    root.querySelectorAll('[title="null"]').forEach(untitled);
  };
  new MutationObserver((changes) => {
    for (const c of changes) {
      if (c.type === "characterData") fix(c.target);
      else if (c.type === "attributes") untitled(c.target);
      else c.addedNodes.forEach((n) => { walk(n); clean(n); });
    }
  }).observe(document.documentElement, {
    childList: true, subtree: true, characterData: true, attributes: true,
    attributeFilter: ["title"],
  });
  walk(document.documentElement);
  clean(document.documentElement);
})(%s);"""


def script(lang: Lang) -> str:
    """The page's own words in `lang` (Voilà's own in English), as a <script> element."""
    words = RUSSIAN if lang == "ru" else []
    return f"<script>{_JS % json.dumps(words, ensure_ascii=False)}</script>"


def resources(lang: Lang) -> dict[str, str]:
    """What a Voilà server of ours hands its template (`VoilaConfiguration.resources`): the
    page's language and `script`."""
    return {"lang": lang, "page_words": script(lang)}


def show(lang: Lang) -> None:
    """`script` as the notebook's output, in a kernel (nothing elsewhere)."""
    from IPython import get_ipython
    from IPython.display import HTML, display

    if get_ipython() is not None:
        display(HTML(script(lang)))  # type: ignore[no-untyped-call]


__all__ = ["RUSSIAN", "resources", "script", "show"]
