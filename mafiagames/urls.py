from django.contrib import admin
from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("r/<str:code>/", views.tv, name="tv"),
    path("r/<str:code>/host", views.host, name="host"),
    path("j/<str:code>/", views.join, name="join"),
    path("p/<str:code>/", views.phone, name="phone"),
    path("p/<str:code>/act", views.act, name="act"),
    path("admin/", admin.site.urls),
]
