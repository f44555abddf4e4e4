"""Accounts: a player's lasting self, with its name, its ways in and its sessions.

:mod:`.names` says what an account's name may be, :mod:`.passwords` what a password
may be and how it is kept, :mod:`.codes` makes the tokens and codes, :mod:`.devices`
names a device for its owner's list, and :mod:`.service` holds the rules of signing
up, in and out (:class:`~.service.Accounts`).
"""
