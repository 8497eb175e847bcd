from django.urls import path

from . import views, views_history

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
    # history, replays, guided first hands and rematches (lobby.views_history)
    path("matches/", views_history.history_list, name="history"),
    path("matches/<int:match_id>/", views_history.history_match, name="history_match"),
    path("matches/<int:match_id>/replay/", views_history.replay, name="replay"),
    path(
        "matches/<int:match_id>/replay/<int:hand_no>/",
        views_history.replay_hand,
        name="replay_hand",
    ),
    path(
        "matches/<int:match_id>/hands/<int:hand_no>/analysis/",
        views_history.analysis_hand,
        name="analysis_hand",
    ),
    path(
        "matches/<int:match_id>/hands/<int:hand_no>/scenario/",
        views_history.scenario,
        name="scenario",
    ),
    path("matches/<int:match_id>/rematch/", views_history.rematch_offer, name="rematch_offer"),
    path(
        "matches/<int:match_id>/rematch/answer/",
        views_history.rematch_answer,
        name="rematch_answer",
    ),
    path(
        "matches/<int:match_id>/rematch/start/", views_history.rematch_start, name="rematch_start"
    ),
    path("tutorial/<slug:game>/", views_history.tutorial_hand, name="tutorial"),
    path("tutorial/<slug:game>/skip/", views_history.tutorial_skip, name="tutorial_skip"),
    # Kelimeki's Skor Kartı (W-X2, W-L7, W-L9)
    # one game's lobby (last: the paths above win over a game key)
    path("<slug:game>/", views.game_lobby, name="game"),
]
