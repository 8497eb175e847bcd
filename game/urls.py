from django.urls import path

from . import fairness, views, views_seats

app_name = "game"

urlpatterns = [
    path("match/<int:match_id>/", views.match_page, name="match"),
    path("match/<int:match_id>/leave/", views.leave, name="leave"),
    path("match/<int:match_id>/seat/", views_seats.seat_take, name="seat_take"),  # P-12
    path("match/<int:match_id>/seat/answer/", views_seats.seat_answer, name="seat_answer"),
    path("install/", views.install_help, name="install"),
    # At the site root so that the service worker's scope is the whole site.
    path("sw.js", views.service_worker, name="service_worker"),
    path("verify/", fairness.verify, name="verify"),  # provably fair shuffles (issue 11)
]
