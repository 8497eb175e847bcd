import pytest

from accounts.models import User

STRONG_PASSWORD = "kirmizi-yedi-okey-42"


@pytest.fixture(autouse=True)
def _isolated_cache(isolated_cache):
    return isolated_cache


@pytest.fixture
def password():
    return STRONG_PASSWORD


@pytest.fixture
def player(db):
    return User.objects.create_user(
        username="ayse", email="ayse@example.com", password=STRONG_PASSWORD
    )
