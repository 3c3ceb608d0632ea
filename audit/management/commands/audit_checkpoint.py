from django.core.management.base import BaseCommand

from audit.checkpoints import checkpoint_create


class Command(BaseCommand):
    help = "Record and sign a checkpoint of the chains that moved since the last one."

    def handle(self, *args: object, **options: object) -> None:
        checkpoint = checkpoint_create(actor="system:audit_checkpoint")
        if checkpoint is None:
            self.stdout.write("no chain moved since the last checkpoint")
        else:
            chains = len(checkpoint.heads)
            self.stdout.write(f"checkpoint {checkpoint.number}: {chains} chains, signed")
