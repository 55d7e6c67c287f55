from django.core.management.base import BaseCommand

from mafiagames.addresses import base_url


class Command(BaseCommand):
    help = "Print the address to open on the TV and to give phones."

    def add_arguments(self, parser):
        parser.add_argument("--port", default="8000")

    def handle(self, *args, **options):
        url = base_url(f"localhost:{options['port']}")
        self.stdout.write(f"\n  mafiagames is starting. Open {url}/ on the TV laptop.\n"
                          f"  Phones on the same Wi-Fi join by scanning the QR code it shows.\n")
