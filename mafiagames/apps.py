from django.apps import AppConfig


class MafiagamesConfig(AppConfig):
    name = "mafiagames"
    verbose_name = "Mafia games"

    def ready(self):
        # Every registered ruleset's presenter is complete (presenters.REQUIRED), or the app does
        # not start: a missing part is named now, not found on somebody's screen mid-game.
        from engines import registry

        from . import notify, timers
        from .presenters import presenter

        for ruleset in registry.all():
            presenter(ruleset.slug)
        # The game master's clock hears every committed game change (a move may start a clock):
        # the writer never has to know it, and no caller has to remember it.
        notify.listen(timers.after_commit)
