"""daphne's ``--proxy-headers`` never decides who the client is (issue 27 item 6).

With ``--proxy-headers`` daphne replaces the socket's peer (the ASGI scope's
``client``, Django's ``REMOTE_ADDR``) with the *leftmost* ``X-Forwarded-For`` entry —
the one the client itself wrote.  With ``KUT_TRUSTED_PROXIES=0`` every throttle that
counts per address (log-in, sign-up, guests' games) then counted an address the client
chose, and rotating it escaped them.  Documenting the flag as a misconfiguration was not
enough: inside daphne, ``install`` makes the address always the socket's peer.  Which
``X-Forwarded-For`` entry to trust is the site's own decision, ``KUT_TRUSTED_PROXIES``
(``accounts.services.client_ip``), read from the header itself.  The scheme daphne
derives from ``X-Forwarded-Proto`` is kept (Django's ``SECURE_PROXY_SSL_HEADER`` is the
setting that matters for it).
"""

from __future__ import annotations

import logging
import sys

log = logging.getLogger(__name__)

_installed = False


def install() -> None:
    global _installed
    if _installed:
        return
    from daphne import http_protocol, utils, ws_protocol

    parse = utils.parse_x_forwarded_for

    def peer_stays(headers, address_header_name="X-Forwarded-For",
                   port_header_name="X-Forwarded-Port", proto_header_name="X-Forwarded-Proto",
                   original_addr=None, original_scheme=None):  # fmt: skip
        _ignored, scheme = parse(headers, address_header_name, port_header_name,
                                 proto_header_name, original_addr, original_scheme)  # fmt: skip
        return original_addr, scheme

    http_protocol.parse_x_forwarded_for = peer_stays
    ws_protocol.parse_x_forwarded_for = peer_stays
    if "--proxy-headers" in sys.argv:
        log.warning(
            "daphne --proxy-headers is ignored for the client's address: the site reads "
            "X-Forwarded-For itself, trusting KUT_TRUSTED_PROXIES entries from the right"
        )
    _installed = True
