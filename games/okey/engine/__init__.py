"""What the okey family shares (house-style, "Many games, one platform"): KÜT
(``kut.md``) and KDVli Okey (``kdvli.md``) use the same 106 tiles and notation
(K-T1…K-T7 = V-T1…V-T7), the same rack (K-R1…K-R3 = V-R1), and the same shuffle, opaque
tile ids and deal commitment (K-D1 = V-D1, P-2).

* ``tiles``  faces, physical tiles, notation (``R7``, ``F``), the okey of an indicator
* ``rack``   the two-row rack with separators and its segments
* ``deal``   ``SeededRNG``, ``secure_rng``, ``shuffled_deal``, ``make_ids``, ``commitment``

Pure Python, no Django.  KÜT's old module names (``games.okey.engine.tiles``, ``rack``,
``deal``) re-export these.
"""
