"""What many tests share to look at pages: a logged-in client (Turkish first, as the
site is), and the strings a table page hands its script (``json_script``)."""

from __future__ import annotations

import json
import re

from django.test import Client


def client_for(user, language: str = "tr") -> Client:
    """A client logged in as ``user`` that asks for ``language``."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def page_strings(response, script_id: str) -> dict:
    """The JSON of the page's ``<script id=script_id type="application/json">``."""
    found = re.search(
        rf'<script id="{re.escape(script_id)}" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert found, f"the page's {script_id} strings are missing"
    return json.loads(found.group(1))
