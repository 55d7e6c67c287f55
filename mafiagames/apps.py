from django.apps import AppConfig


class MafiagamesConfig(AppConfig):
    name = "mafiagames"
    verbose_name = "Mafia games"

    def ready(self):
        # Every registered ruleset's presenter is complete (presenters.REQUIRED), or the app does
        # not start: a missing part is named now, not found on somebody's screen mid-game.
        from engines import registry

        from .presenters import presenter

        for ruleset in registry.all():
            presenter(ruleset.slug)
