from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from .forms import LoginForm, ProfileForm, SignUpForm
from .services import client_ip, request_allowed, user_display_name_update


def safe_next(request: HttpRequest) -> str:
    """The ``next`` parameter when it points back into this site, else ``""``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    # The form posts back to this URL, query string included, so ``?next=`` survives it
    # (an invite link leads through sign-up straight to the seat).
    next_url = safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        if not request_allowed(
            "signup", window=settings.KUT_SIGNUP_WINDOW_SECONDS,
            limits=[(client_ip(request), settings.KUT_SIGNUPS_PER_IP)],
        ):  # fmt: skip
            form.add_error(None, _("Too many accounts were made from your address. "
                                   "Please try again later."))  # fmt: skip
            context = {"form": form, "next": next_url}
            return render(request, "accounts/signup.html", context, status=429)
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to KÜT, %(name)s!") % {"name": user.username})
        return redirect(next_url or "home")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.is_throttled:
            response.status_code = 429
        return response


class LogoutView(auth_views.LogoutView):
    """POST only (Django 5)."""


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:password_change_done")


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/email/password_reset.txt"
    subject_template_name = "accounts/email/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        """At most KUT_PASSWORD_RESETS_PER_IP requests per address and
        KUT_PASSWORD_RESETS_PER_EMAIL mails per address asked for in the window (whether
        or not an account has it: the answer tells nothing about the account)."""
        email = form.cleaned_data.get("email", "")
        if not request_allowed(
            "password-reset", window=settings.KUT_PASSWORD_RESET_WINDOW_SECONDS,
            limits=[(client_ip(self.request), settings.KUT_PASSWORD_RESETS_PER_IP),
                    (f"email:{email}", settings.KUT_PASSWORD_RESETS_PER_EMAIL)],
        ):  # fmt: skip
            form.add_error(None, _("Too many password reset requests. Please try again later."))
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else None
    form = ProfileForm(data, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user_display_name_update(request.user, form.cleaned_data["display_name"])
        messages.success(request, _("Your profile has been saved."))
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})
