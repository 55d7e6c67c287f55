from django.core.management.base import BaseCommand

from mafiagames.models import Player


class Command(BaseCommand):
    help = "Mark every player as disconnected (run before starting a single server process)."

    def handle(self, *args, **options):
        Player.objects.exclude(connections=0).update(connections=0)
