"""What the okey family's games (KÜT, KDVli Okey, Kastet) share: the 106 tiles and their
notation, groups, the rack, the shuffle (``engine/``), and the tile tables' common
browser pieces.  A home of shared parts, not a game: it is in no registry."""
