"""`drts bots`: bot programs playing Shades through the service, over the contest's protocol.

`process` runs one bot under limits, under its `keeper` (the process that ends
everything the bot starts), in the seat's cgroups (`confine`); `exchange`
speaks to several at once;
`runner` plays a match through the Matches application; `series` plays
several and tallies them; `command` is the click command and its display.
"""
