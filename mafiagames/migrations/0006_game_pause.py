from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('mafiagames', '0005_room_recovery'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='paused_at',
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
