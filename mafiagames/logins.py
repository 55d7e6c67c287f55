"""The admin's login form, throttled: wrong passwords are counted per client address and per
user name, and past either limit the form says so and refuses even the right password until the
window ends (limits.LOGIN_FAILURES, limits.LOGIN_FAILURES_PER_USER: 5 and 10 in 15 minutes).

Our own counter, not django-axes: its latest release (8.3.1) does not declare Django 6.1, and
this needs the one thing every limit keys on (clients.py, the real client address, never a
forwarding header the client writes) plus a rule axes has no setting for.

The rule: a per-user lock that any address can trigger lets a stranger lock the admin out, for
good if he fails ten times every quarter of an hour.  So the per-user count refuses only
addresses that have never logged in as that user (limits.KNOWN_LOGINS, 30 days): guesses spread
over many addresses still stop at ten per window, and the admin's own devices are never locked
by someone else's failures (only by their own, per address).  The server's own machine, asked
directly, is never limited (clients.Client.exempt): the admin's way in after a restart, when
this process has forgotten which addresses are known.
"""

from __future__ import annotations

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.exceptions import ValidationError
from django.dispatch import receiver
from django.utils.translation import gettext as _

from . import clients, limits


def _user_key(name: str | None) -> tuple[str]:
    return ((name or "").casefold(),)   # "Admin" and "admin": one count


def refusal(request, name: str | None) -> str | None:
    """Why this login attempt is refused before its password is checked, or None."""
    client = clients.of_request(request)
    if client.exempt:
        return None
    if limits.LOGIN_FAILURES.over((client.address,)):
        return _("Too many wrong passwords from your address. Wait 15 minutes and try again.")
    if limits.LOGIN_FAILURES_PER_USER.over(_user_key(name)) and (_user_key(name), client.address) \
            not in limits.KNOWN_LOGINS:
        return _("Too many wrong passwords for this user. Wait 15 minutes, or log in from a device "
                 "that has logged in before or from the server itself.")
    return None


@receiver(user_login_failed, dispatch_uid="mafiagames.logins.count_failure")
def count_failure(sender, credentials, request=None, **kwargs):
    if request is None:
        return
    client = clients.of_request(request)
    limits.allow(limits.LOGIN_FAILURES, client)
    if client.limited:
        limits.LOGIN_FAILURES_PER_USER.hit(_user_key(credentials.get("username")))


@receiver(user_logged_in, dispatch_uid="mafiagames.logins.remember_success")
def remember_success(sender, request, user, **kwargs):
    if request is not None:
        limits.KNOWN_LOGINS.add((_user_key(user.get_username()), clients.of_request(request).address))


class ThrottledLoginForm(AdminAuthenticationForm):
    """The admin's login form; refused attempts never reach the password check."""

    def clean(self):
        reason = refusal(self.request, self.cleaned_data.get("username"))
        if reason:
            raise ValidationError(reason, code="throttled")
        return super().clean()
