"""The lobby's own event: ``ranking_written`` (``match_id``) is sent once a match's
ranking rows (or a leaving cost) have been written and committed, for a game that keeps
more bookkeeping on top of them (Kelimeki's k-lig rewards, W-L6)."""

from django.dispatch import Signal

ranking_written = Signal()
