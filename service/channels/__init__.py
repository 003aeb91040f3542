"""Channels: the ways orders and results reach a match besides the HTTP API.

- mail/: seats' secret order addresses, result mail, the outbox and the SMTP intake;
- forum/: play by forum: posts, forum users, one-time codes, replies;
- protocol.py: the bot protocol's messages over HTTP.
"""
