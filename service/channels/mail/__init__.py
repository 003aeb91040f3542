"""Play by e-mail (docs/mail.md): orders arrive as mail, are authenticated by the seat's
secret order address, stored, and answered by mail.

- addresses.py: the seats' order addresses and result addresses (hashed tables);
- reading.py: a received message as an order's text (MIME, charsets, quotes, signatures);
- desk.py: one message received: stored (order, refusal or dead letter), then answered;
- letters.py: the answers, threaded;
- outbox.py: where answers go: a relay through a Celery task, or a maildir folder.
- notices.py, bulletins.py: the outbox of notices (results, reminders, disputes), sent once;
- seatletters.py: a tournament seat's token and order address, mailed to its player.
"""
