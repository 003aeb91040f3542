"""Scenarios (docs/scenarios.md): the tooling that plays scenario files, apart from the use cases.

- runner.py: the scenario runner, its file format and the Driver contract;
- expectations.py: a movement's `expect` compared with what it gave;
- driver.py: the driver that plays a scenario through the Matches application;
- events.py: the `expect_events` check of scenario files;
- demo.py: a demonstration match of random legal orders.
"""
