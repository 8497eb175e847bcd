"""Bans and the moderation log (``<entity>_<verb>``).

A banned player cannot log in (``LoginForm``), is logged out on their next request
(``BannedUserMiddleware``), cannot join a table or connect a socket, and every live socket
of theirs is closed at once through the channel layer group ``user.<id>`` (the consumers
handle ``user.kick``).  accounts imports neither game nor lobby: it talks to the channel
layer directly and announces bans with the ``user_banned`` signal.
"""

from __future__ import annotations

import logging
from datetime import datetime

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from .models import ModerationLog, User
from .signals import user_banned

log = logging.getLogger(__name__)


def user_is_banned(user, now: datetime | None = None) -> bool:
    """True for a logged-in user whose ban is in force (anonymous users: False)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    ban_active = getattr(user, "ban_active", None)
    return bool(ban_active and ban_active(now))


def ban_message(user) -> str:
    """What a banned player is told (Turkish by default)."""
    if user.banned_until is None:
        text = _("Your account has been suspended.")
    else:
        until = formats.date_format(timezone.localtime(user.banned_until), "DATETIME_FORMAT")
        text = _("Your account is suspended until %(until)s.") % {"until": until}
    if user.ban_reason:
        text += " " + _("Reason: %(reason)s") % {"reason": user.ban_reason}
    return text


def moderation_log_record(*, actor, action: str, target, reason: str = "",
                          target_user=None, details: dict | None = None) -> ModerationLog:  # fmt: skip
    """Append one entry to the moderation log (who, when, what, to whom, why)."""
    return ModerationLog.objects.create(
        actor=actor if getattr(actor, "pk", None) else None,
        actor_name=actor.get_username() if getattr(actor, "pk", None) else "",
        action=action,
        target_user=target_user,
        target_type=target._meta.model_name,
        target_id=str(target.pk),
        target_repr=str(target)[:200],
        reason=reason,
        details=details or {},
    )


def user_kick(user_id: int, reason: str) -> None:
    """Close every live socket of a user (each consumer joins ``user.<id>``)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(f"user.{user_id}", {"type": "user.kick", "reason": reason})
    except Exception:  # a full channel must not undo a committed ban
        log.warning("kicking the sockets of user %s failed", user_id)


def user_ban(user: User, *, actor, reason: str, until: datetime | None = None,
             now: datetime | None = None) -> User:  # fmt: skip
    """Ban ``user`` until ``until`` (None: for good), log it, close their sockets and
    announce it (``user_banned``) after commit."""
    now = now or timezone.now()
    if until is not None and until <= now:
        raise ValueError("a ban must end in the future")
    given = user
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        user.is_banned = True
        user.banned_until = until
        user.ban_reason = reason.strip()[:500]
        user.save(update_fields=["is_banned", "banned_until", "ban_reason"])
        moderation_log_record(
            actor=actor,
            action=ModerationLog.Action.BAN,
            target=user,
            target_user=user,
            reason=user.ban_reason,
            details={"until": until.isoformat() if until else None},
        )
        uid = user.pk

        def announce():
            user_kick(uid, "banned")
            banned = User.objects.filter(pk=uid).first()
            if banned is not None:
                user_banned.send(sender=User, user=banned)

        transaction.on_commit(announce)
    given.is_banned, given.banned_until, given.ban_reason = True, until, user.ban_reason
    return user


def user_unban(user: User, *, actor, reason: str = "") -> User:
    """Lift a ban (logged)."""
    given = user
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        user.is_banned = False
        user.banned_until = None
        user.ban_reason = ""
        user.save(update_fields=["is_banned", "banned_until", "ban_reason"])
        moderation_log_record(
            actor=actor,
            action=ModerationLog.Action.UNBAN,
            target=user,
            target_user=user,
            reason=reason.strip(),
        )
    given.is_banned, given.banned_until, given.ban_reason = False, None, ""
    return user
