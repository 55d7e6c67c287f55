from django.contrib import admin
from django.urls import include, path

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
    path("p/<str:code>/language", views.phone_language, name="phone_language"),
    # Django's set_language: the language menu of the pages a browser sees before it has a seat.
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
