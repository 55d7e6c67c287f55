from django.core.management.base import BaseCommand

from mafiagames.models import HostDevice, Player


class Command(BaseCommand):
    help = "Mark every player and host device as disconnected (run before starting a single server process)."

    def handle(self, *args, **options):
        Player.objects.exclude(connections=0).update(connections=0)
        HostDevice.objects.exclude(connections=0).update(connections=0)
