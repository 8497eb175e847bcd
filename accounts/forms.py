from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .bans import ban_message, user_is_banned
from .models import User
from .services import client_ip, login_failure_record, login_failures_clear, login_is_throttled


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        error_messages={
            "required": _("Please enter your e-mail address."),
            "invalid": _("Please enter a valid e-mail address, e.g. ad@ornek.com."),
        },
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    error_messages = {
        **UserCreationForm.error_messages,
        "password_mismatch": _("The two passwords do not match."),
        "duplicate_username": _("This username is already taken. Please choose another one."),
        "duplicate_email": _("An account with this e-mail address already exists."),
    }

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
        error_messages = {
            "username": {
                "required": _("Please choose a username."),
                "unique": _("This username is already taken. Please choose another one."),
            }
        }

    def clean_username(self) -> str:
        username = self.cleaned_data.get("username", "")
        if username and User.objects.filter(username__iexact=username).exists():
            raise ValidationError(
                self.error_messages["duplicate_username"], code="duplicate_username"
            )
        return username

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data.get("email", ""))
        if email and User.objects.filter(email__iexact=email).exists():
            raise ValidationError(self.error_messages["duplicate_email"], code="duplicate_email")
        return email


class LoginForm(AuthenticationForm):
    """Django's login form with a cache-based throttle per username and per address."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "Wrong username or password. Note that both fields may be case-sensitive."
        ),
        "inactive": _("This account is inactive."),
        "throttled": _("Too many attempts. Please wait a minute and try again."),
    }

    def confirm_login_allowed(self, user):
        super().confirm_login_allowed(user)
        if user_is_banned(user):  # a clear reason, never a silent refusal
            raise ValidationError(ban_message(user), code="banned")

    def clean(self):
        username = (self.cleaned_data.get("username") or "").strip()
        password = self.cleaned_data.get("password")
        ip = client_ip(self.request)
        if login_is_throttled(username, ip):
            raise ValidationError(self.error_messages["throttled"], code="throttled")
        try:
            cleaned = super().clean()
        except ValidationError as exc:
            if username and password and getattr(exc, "code", None) == "invalid_login":
                login_failure_record(username, ip)
            raise
        if username and self.user_cache is not None:
            login_failures_clear(username)
        return cleaned

    @property
    def is_throttled(self) -> bool:
        return any(error.code == "throttled" for error in self.non_field_errors().as_data())


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name",)
        widgets = {"display_name": forms.TextInput(attrs={"autocomplete": "nickname"})}
