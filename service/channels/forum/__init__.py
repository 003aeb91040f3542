"""Play by forum (docs/forum.md): forum posts are orders, sent in by a forum integration
holding the operator token (or imported from a file), taken as a seat's order through
the referee's mapping of forum users to seats or a one-time code, and answered with a
reply to post back.

- posts.py: a post as drts takes it (author, post id, time, body) and its received time;
- reading.py: posts from a file (an mbox, or a JSON list);
- users.py: the mapping of forum users to seats, folded from the match's events;
- codes.py: the seats' one-time codes (hashed table), each used by one post;
- desk.py: one post received: stored (order, refusal), then replied to;
- replies.py: the replies' texts, and the posts to make after each movement.
"""
