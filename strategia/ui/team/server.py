"""The web server of the pages Strategia serves, the console (`make console-app`) and the
screens (`strategia serve`): Voilà, less what would answer another user of the machine without
the screen's token, with pages that keep their token to themselves and kernels that stay until
their page has connected.

    python -m strategia.ui.team.server NOTEBOOK [Voilà's options]

What differs from `voila NOTEBOOK`:

- No `/voila/query/<kernel id>`. With pre-heated kernels Voilà opens that websocket, with no
  login, to hand a kernel kept ready the request of the page that took it, its query string
  with the page's `?token=` included; a kernel's id is on its command line (`ps`), so any user
  of the machine could read a screen's token there. Nothing of ours asks it (it serves Voilà's
  `wait_for_request`, which our notebooks do not call), so the route is not served at all.
- No `/voila/files/`: Voilà serves the pictures of the notebook's folder there without a login;
  the screens show none.
- Every page and answer says `Referrer-Policy: no-referrer` (tornado's `headers` setting, which
  Jupyter's handlers send), and the page's template (`strategia-screen`, Voilà's "lab" with a
  head of its own) says it again in a `<meta>` and takes the token out of the address bar once
  the page has it as a cookie. A page's `?template=` cannot choose another template.
- Voilà's configuration files are read from Jupyter's folders only, not from the folder the
  server runs in (the screens' folder: `serve_cmd.folder`).
- Its defaults (options given on the command line win): the kernels of closed pages are culled
  after 20 s idle, but never one a page is still attaching to (`kernels.PageKernelManager`); a
  kernel that dies is not restarted empty; a page whose kernel is gone says so in the page's
  language (STRATEGIA_LANG) and opens again, on a new kernel that resumes the game.
- The page's own words while it opens are in the screen's language (STRATEGIA_LANG): the
  template is handed `page_words.resources`.

Everything else (the token from JUPYTER_TOKEN, the login page, kernels, culling, pre-heated
kernels) is Voilà's own.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from jupyter_core.paths import jupyter_config_path
from traitlets import default
from voila.app import Voila
from voila.request_info_handler import RequestInfoSocketHandler
from voila.static_file_handler import AllowListFileHandler

from strategia.core.i18n import check_lang
from strategia.ui.team import kernels
from strategia.ui.widgets import page_words

DATA = Path(__file__).with_name("jupyter")  # holds voila/templates/strategia-screen
TEMPLATE = "strategia-screen"
HEADERS = {"Referrer-Policy": "no-referrer"}
DROPPED = (RequestInfoSocketHandler, AllowListFileHandler)
KERNELS = kernels.NAME
CULLING = {"cull_idle_timeout": 20, "cull_interval": 5, "cull_connected": False}


class ScreenVoila(Voila):  # type: ignore[misc]
    """Voilà for one screen: see the module's docstring."""

    @default("config_file_paths")
    def _config_file_paths_default(self) -> list[str]:
        return list(jupyter_config_path())

    def initialize(self, argv: Any = None) -> None:
        self.config.VoilaConfiguration.setdefault("template", TEMPLATE)
        self.config.VoilaConfiguration.setdefault("multi_kernel_manager_class", KERNELS)
        lang = check_lang(os.environ.get("STRATEGIA_LANG", "ru"))
        self.config.VoilaConfiguration.setdefault(
            "resources", {**page_words.resources(lang), "strategia_lang": lang}
        )
        for key, value in CULLING.items():
            self.config.MappingKernelManager.setdefault(key, value)
        # a kernel that died is culled and its page opens again on a new one that resumes the
        # game, rather than restarted empty under a page whose widgets it no longer has
        self.config.KernelRestarter.setdefault("restart_limit", 0)
        self.config.VoilaConfiguration.allow_template_override = "NO"
        super().initialize(argv)
        settings: dict[str, Any] = dict(self.tornado_settings)  # type: ignore[has-type]
        settings["headers"] = {**settings.get("headers", {}), **HEADERS}
        self.tornado_settings = settings

    def init_handlers(self) -> list[Any]:
        return [h for h in super().init_handlers() if h[1] not in DROPPED]


def main(argv: list[str] | None = None) -> None:
    # the template is found where Voilà looks for every template and its static files
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        x for x in (str(DATA), os.environ.get("JUPYTER_PATH", "")) if x
    )
    ScreenVoila.launch_instance(argv)


if __name__ == "__main__":
    main()
