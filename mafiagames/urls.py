from django.contrib import admin
from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("r/<str:code>/", views.tv, name="tv"),
    path("r/<str:code>/host", views.host, name="host"),
    path("r/<str:code>/host-login", views.host_login, name="host_login"),
    path("host-login", views.host_login_start, name="host_login_start"),
    path("j/<str:code>/", views.join, name="join"),
    path("j/<str:code>/claim", views.claim, name="claim"),
    path("p/<str:code>/", views.phone, name="phone"),
    path("p/<str:code>/act", views.act, name="act"),
    path("p/<str:code>/host-offer", views.host_offer, name="host_offer"),
    path("admin/", admin.site.urls),
]
