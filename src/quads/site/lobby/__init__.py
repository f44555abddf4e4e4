"""The lobby: seeks (open offers to play), accepting one, and quick pairing.

* :mod:`~quads.site.lobby.pairing`: whom quick pairing meets, and the game a seek
  taken starts;
* :mod:`~quads.site.lobby.service`: :class:`~quads.site.lobby.service.Lobby`, what a
  player does in the lobby, checked and told to the lobby's followers.

The seeks themselves are kept by :mod:`quads.storage.lobby`, which takes a seek once
however many accept it at once.
"""
