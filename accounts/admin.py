"""Staff-only administration of players: search, ban and unban (with a reason and an
optional end), and the read-only moderation log.  Ban fields are read-only in the form:
bans go through ``accounts.bans`` so that each one is logged and closes live sockets."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .bans import user_ban, user_unban
from .models import ModerationLog, User


class BanForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": _("Please give a reason.")},
    )
    until = forms.DateTimeField(
        label=_("Banned until"),
        required=False,
        help_text=_("Leave empty for a permanent ban. Format: 2025-12-31 18:00"),
        error_messages={"invalid": _("Enter a date and time, e.g. 2025-12-31 18:00.")},
    )

    def clean_until(self):
        until = self.cleaned_data.get("until")
        if until is not None and until <= timezone.now():
            raise forms.ValidationError(_("The end of a ban must be in the future."))
        return until


class UnbanForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        (_("Player"), {"fields": ("display_name",)}),
        (_("Ban"), {"fields": ("is_banned", "banned_until", "ban_reason")}),
    )
    readonly_fields = ("is_banned", "banned_until", "ban_reason")
    list_display = (
        "username",
        "display_name",
        "email",
        "is_staff",
        "ban_status",
        "date_joined",
    )
    list_filter = (*BaseUserAdmin.list_filter, "is_banned")
    search_fields = ("username", "display_name", "email")
    actions = ("ban_users", "unban_users")

    @admin.display(description=_("Ban"), boolean=False)
    def ban_status(self, obj: User) -> str:
        if not obj.ban_active():
            return "—"
        if obj.banned_until is None:
            return str(_("permanent"))
        return timezone.localtime(obj.banned_until).strftime("%Y-%m-%d %H:%M")

    def _intermediate(self, request, queryset, form, title, action):
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "form": form,
            "queryset": queryset,
            "opts": self.model._meta,
            "action": action,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "media": self.media,
        }
        return TemplateResponse(request, "admin/accounts/user/ban_action.html", context)

    @admin.action(description=_("Ban selected users"), permissions=["change"])
    def ban_users(self, request, queryset):
        form = BanForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            done = 0
            for user in queryset:
                if user.pk == request.user.pk:
                    self.message_user(request, _("You cannot ban yourself."), messages.ERROR)
                    continue
                user_ban(
                    user,
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                    until=form.cleaned_data["until"],
                )
                done += 1
            if done:
                self.message_user(
                    request,
                    ngettext("%(n)d user banned.", "%(n)d users banned.", done) % {"n": done},
                    messages.SUCCESS,
                )
            return None
        return self._intermediate(request, queryset, form, _("Ban users"), "ban_users")

    @admin.action(description=_("Lift the ban of selected users"), permissions=["change"])
    def unban_users(self, request, queryset):
        form = UnbanForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            done = 0
            for user in queryset.filter(is_banned=True):
                user_unban(user, actor=request.user, reason=form.cleaned_data["reason"])
                done += 1
            self.message_user(
                request,
                ngettext("%(n)d ban lifted.", "%(n)d bans lifted.", done) % {"n": done},
                messages.SUCCESS,
            )
            return None
        return self._intermediate(request, queryset, form, _("Lift bans"), "unban_users")


@admin.register(ModerationLog)
class ModerationLogAdmin(admin.ModelAdmin):
    """Read-only: entries are written by the moderation actions themselves."""

    list_display = ("created_at", "actor_name", "action", "target_type", "target_repr", "reason")
    list_filter = ("action", "target_type")
    search_fields = ("actor_name", "target_repr", "reason")
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in ModerationLog._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
