from django.contrib import admin
from django.urls import include, path

from game.engine import registry
from game.web import web
from lobby.views_history import player_profile

from . import admin_safety, views

admin_safety.protect(admin.site)  # no admin URL filters on a seed, a state… (issue 16)

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("how-to-play/", views.guides, name="guides"),  # Nasıl Oynanır (issue 15)
    path("how-to-play/<slug:game>/", views.guide, name="guide"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/", include("accounts.urls")),
    path("lobby/", include("lobby.urls")),
    path("u/<str:username>/", player_profile, name="player"),  # public player page
    path("", include("game.urls")),
    # each game's own pages at /<key>/ (its web side's ``urls``), namespaced by its key
    *[path(f"{key}/", include((web(key).urls, key))) for key in registry.GAMES if web(key).urls],
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
