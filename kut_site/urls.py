from django.contrib import admin
from django.urls import include, path

from lobby.views_history import player_profile

from . import admin_safety, views

admin_safety.protect(admin.site)  # no admin URL filters on a seed, a state… (issue 16)

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("how-to-play/", views.guide, name="guide"),  # Nasıl Oynanır (issue 15)
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/", include("accounts.urls")),
    path("lobby/", include("lobby.urls")),
    path("u/<str:username>/", player_profile, name="player"),  # public player page
    path("", include("game.urls")),
    path("kelimeki/", include("game.kelimeki_urls")),  # issue 21: vs the AI without an account
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
