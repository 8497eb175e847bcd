"""The KÜT rules engine: pure Python, no Django (kut.md sections 1–11).

Entry points: ``deal.new_hand`` / ``deal.hand_from_faces`` set a hand up,
``transitions.apply`` plays an action, ``views.view_for`` shows one seat what it may
see, ``match`` runs the hands of a match, ``replay`` is the scenario command.
"""
