"""The admin's login: wrong passwords counted per client address and per user name, then refused
in words even with the right password (mafiagames/logins.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from mafiagames import limits

pytestmark = [pytest.mark.django_db,
              pytest.mark.usefixtures("admin_user_boss")]

PASSWORD = "the-right-one"
TOO_MANY = "Too many wrong passwords"


@pytest.fixture
def admin_user_boss(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]   # fast, for tests only
    User.objects.create_superuser("boss", "boss@example.com", PASSWORD)


def log_in(address: str, password: str = PASSWORD, name: str = "boss", **headers):
    """One attempt from ``address``; the response (302 to the admin: logged in)."""
    client = Client(REMOTE_ADDR=address)
    return client.post("/admin/login/?next=/admin/", {"username": name, "password": password}, **headers)


def logged_in(response) -> bool:
    return response.status_code == 302 and response.url == "/admin/"


def test_wrong_passwords_from_one_address_lock_it_out_even_with_the_right_one():
    for _ in range(limits.LOGIN_FAILURES.count):
        response = log_in("10.0.0.50", "guess")
        assert response.status_code == 200 and TOO_MANY not in response.content.decode()
    refused = log_in("10.0.0.50")
    assert not logged_in(refused) and TOO_MANY in refused.content.decode()
    assert "from your address" in refused.content.decode()
    assert logged_in(log_in("10.0.0.51"))                       # another address is untouched


def test_other_user_names_count_against_the_same_address():
    for i in range(limits.LOGIN_FAILURES.count):
        log_in("10.0.0.50", "guess", name=f"user{i}")
    assert not logged_in(log_in("10.0.0.50"))


def test_a_forged_forwarding_header_changes_nothing():
    for _ in range(limits.LOGIN_FAILURES.count):
        log_in("10.0.0.50", "guess", HTTP_X_FORWARDED_FOR="10.0.0.99")   # "I am someone else"
    assert not logged_in(log_in("10.0.0.50", HTTP_X_FORWARDED_FOR="10.0.0.98"))
    assert not logged_in(log_in("10.0.0.50", HTTP_X_FORWARDED_FOR="127.0.0.1"))   # "I am the server"
    assert logged_in(log_in("10.0.0.52", HTTP_X_FORWARDED_FOR="10.0.0.50"))       # "I am the locked one"


def test_guesses_from_many_addresses_lock_the_user_but_not_the_admins_own_devices():
    assert logged_in(log_in("10.0.0.60"))                        # the admin's laptop, yesterday
    for i in range(limits.LOGIN_FAILURES_PER_USER.count):        # one guess each: no address is over
        log_in(f"10.0.1.{i}", "guess")
    stranger = log_in("10.0.2.1")                                # even with the right password
    assert not logged_in(stranger) and "for this user" in stranger.content.decode()
    assert logged_in(log_in("10.0.0.60"))                        # the admin's own device still can
    assert logged_in(log_in("127.0.0.1"))                        # and so can the server itself
    assert not logged_in(log_in("10.0.2.1", name="nobody-else"))  # no such user: just a failure


def test_the_servers_own_machine_is_never_locked_out():
    for _ in range(limits.LOGIN_FAILURES_PER_USER.count + 2):
        log_in("127.0.0.1", "guess")
    assert logged_in(log_in("127.0.0.1"))
    assert logged_in(log_in("10.0.0.70"))                        # its typos locked nobody else


def test_a_success_does_not_clear_another_addresss_count():
    for _ in range(limits.LOGIN_FAILURES.count):
        log_in("10.0.0.50", "guess")
    assert logged_in(log_in("10.0.0.51"))
    assert not logged_in(log_in("10.0.0.50"))
