import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('mafiagames', '0007_suspicion'),
    ]

    operations = [
        migrations.AddField(
            model_name='room',
            name='host_generation',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='room',
            name='host_offer',
            field=models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='mafiagames.player'),
        ),
        migrations.AddField(
            model_name='room',
            name='host_player',
            field=models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='mafiagames.player'),
        ),
    ]
