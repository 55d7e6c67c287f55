
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('mafiagames', '0009_room_lesson'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='story_all',
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AddField(
            model_name='game',
            name='story_moved',
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='story_step',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
    ]
