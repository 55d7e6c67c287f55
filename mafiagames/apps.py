from django.apps import AppConfig


class MafiagamesConfig(AppConfig):
    name = "mafiagames"
    verbose_name = "Mafia games"

    def ready(self):
        # Every registered ruleset's presenter is complete (presenters.Presenter), or the app does
        # not start: a missing part is named now, not found on somebody's screen mid-game.
        from importlib import import_module

        from django.conf import settings

        from engines import registry

        from . import notify, presenters, timers
        from .presenters import presenter

        # A ruleset kept in a folder of its own (docs/adding-a-ruleset.md): its package holds the
        # engine's RULESET and a presenter module; its templates/ are found as an app's.
        for path in settings.EXTRA_RULESETS:
            package = import_module(path)
            registry.register(package.RULESET)
            presenters.register(package.RULESET.slug, import_module(f"{path}.presenter"))
        for ruleset in registry.all():
            presenter(ruleset.slug)
        # The game master's clock hears every committed game change (a move may start a clock):
        # the writer never has to know it, and no caller has to remember it.
        notify.listen(timers.after_commit)
