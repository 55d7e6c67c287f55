from django.apps import AppConfig


class MafiagamesConfig(AppConfig):
    name = "mafiagames"
    verbose_name = "Mafia games"
