from django.urls import path

from . import views

app_name = "lobby"

urlpatterns = [
    path("", views.index, name="index"),
    path("tables/new/", views.table_create, name="create"),
    path("play-now/", views.play_now, name="play_now"),
    path("tables/<int:table_id>/", views.table_detail, name="table"),
    path("tables/<int:table_id>/join/", views.table_join, name="join"),
    path("tables/<int:table_id>/leave/", views.table_leave, name="leave"),
    path("tables/<int:table_id>/bots/add/", views.table_add_bot, name="add_bot"),
    path("tables/<int:table_id>/bots/remove/", views.table_remove_bot, name="remove_bot"),
    path("tables/<int:table_id>/start/", views.table_start, name="start"),
    path("tables/<int:table_id>/close/", views.table_close, name="close"),
    path("tables/<int:table_id>/invite/renew/", views.invite_renew, name="invite_renew"),
    path("tables/<int:table_id>/invite/revoke/", views.invite_revoke, name="invite_revoke"),
    path("invite/<str:token>/", views.invite, name="invite"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
