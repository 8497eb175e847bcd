"""No admin URL filters on a secret (issue 16: ``?seed__startswith=b0`` answered one row
or none, so 573 requests of a moderator with only ``view_match`` recovered a running
match's seed, and ``?state__hand__racks__1__cells__0__gte=0`` the racks).

Django's admin accepts any lookup on a model's own fields in the query string
(``ModelAdmin.lookup_allowed`` only checks lookups across relations).  ``protect``
narrows every registered ModelAdmin (ours, and Django's own such as ``Group``):

* a lookup that names a secret field anywhere on its path is refused;
* a lookup must start at a field the admin offers as a filter (``list_filter``,
  ``date_hierarchy``) or at the primary key (the admin's own links use ``?id=``).

A refused lookup raises ``DisallowedModelAdminLookup``: the admin answers 400.  Sorting
(``?o=``) takes only ``list_display`` columns, and searching only ``search_fields``;
neither names a secret (``tests/security/test_admin_secrets.py`` checks every admin).
"""

from __future__ import annotations

from django.contrib.admin import ModelAdmin
from django.db.models.constants import LOOKUP_SEP

# The seed and the state hold the deck order and every rack; an action's payload a
# seat's private layout moves; a guest's seat key stands for their session (issue 27);
# passwords (hashes) and invite tokens speak for themselves.
SECRET_FIELDS = frozenset({"seed", "state", "payload", "password", "token", "session_data",
                           "session_key", "secret", "guest_key"})  # fmt: skip


def _roots(model_admin: ModelAdmin) -> set[str]:
    roots = {"pk", model_admin.model._meta.pk.name, model_admin.model._meta.pk.attname}
    for entry in model_admin.list_filter or ():
        name = entry[0] if isinstance(entry, (tuple, list)) else entry
        if isinstance(name, str):
            roots.add(name.split(LOOKUP_SEP)[0])
    if model_admin.date_hierarchy:
        roots.add(model_admin.date_hierarchy.split(LOOKUP_SEP)[0])
    return roots


def lookup_refused(model_admin: ModelAdmin, lookup: str) -> bool:
    parts = lookup.split(LOOKUP_SEP)
    if any(p in SECRET_FIELDS for p in parts):
        return True
    return parts[0] not in _roots(model_admin)


def protect(site) -> None:
    """Wrap ``lookup_allowed`` of every ModelAdmin registered on ``site`` (once)."""
    for model_admin in site._registry.values():
        if getattr(model_admin, "_kut_protected", False):
            continue
        original = model_admin.lookup_allowed

        def lookup_allowed(lookup, value, request=None, _ma=model_admin, _orig=original):
            if lookup_refused(_ma, lookup):
                return False
            return _orig(lookup, value, request)

        model_admin.lookup_allowed = lookup_allowed
        model_admin._kut_protected = True


class ReadOnlyAdmin(ModelAdmin):
    """An admin that shows rows and changes none (the services and the rules write them)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
