"""KÜT's own pages, mounted at ``/kut/`` (``WEB.urls``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("practice/", views.practice, name="practice"),
]
