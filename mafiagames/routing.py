from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/r/<str:code>/", consumers.TvConsumer.as_asgi()),
    path("ws/p/<str:code>/", consumers.PhoneConsumer.as_asgi()),
]
