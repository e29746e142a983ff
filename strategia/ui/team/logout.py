"""The screens' /logout page (`strategia serve`): Jupyter's own, which a Voilà server cannot
render (its page template asks for static files Voilà does not serve as Jupyter does; the answer
was a 500). The login cookie is cleared and the page says so, styled as Voilà's login page."""

from __future__ import annotations

from jupyter_server.auth.logout import LogoutHandler as JupyterLogoutHandler
from voila.voila_identity_provider import VoilaLoginHandler


class LogoutHandler(JupyterLogoutHandler):
    """Jupyter's logout, its static files taken from where Voilà's login page takes them."""

    static_url = VoilaLoginHandler.static_url


__all__ = ["LogoutHandler"]
