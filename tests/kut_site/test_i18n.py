import subprocess
import sys

import pytest
from django.urls import reverse

from tests.conftest import ROOT


def test_catalogues_are_complete_and_compiled():
    """tr translates every msgid, each .mo is current, nothing marked is missing."""
    result = subprocess.run(
        [sys.executable, "scripts/messages.py", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.django_db
def test_turkish_is_the_default(client):
    page = client.get(reverse("home")).content.decode()
    assert '<html lang="tr">' in page
    # sen, not siz (issue 15)
    assert "KÜT&#x27;e hoş geldin<" in page or "KÜT'e hoş geldin<" in page
    assert "Kayıt ol" in page


@pytest.mark.django_db
def test_language_switch_to_english_and_back(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    page = client.get(reverse("home")).content.decode()
    assert '<html lang="en">' in page
    assert "Welcome to KÜT" in page
    assert "Sign up" in page
    assert "Kayıt ol" not in page

    client.post(reverse("set_language"), {"language": "tr", "next": "/"})
    page = client.get(reverse("home")).content.decode()
    assert "Kayıt ol" in page


@pytest.mark.django_db
def test_base_template_has_the_language_switch(client):
    page = client.get(reverse("home")).content.decode()
    assert f'action="{reverse("set_language")}"' in page
    assert 'name="language" value="en"' in page
    assert 'name="language" value="tr"' in page
