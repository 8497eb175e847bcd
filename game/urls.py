from django.urls import path

from . import views

app_name = "game"

urlpatterns = [
    path("match/<int:match_id>/", views.match_page, name="match"),
]
