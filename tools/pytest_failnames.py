"""A pytest plugin for device runs cut by a time limit: each failing test's id is
appended to $FAILNAMES the moment its report arrives (the summary at the end may
never be printed). Load with PYTHONPATH=tools and -p pytest_failnames."""
import os


def pytest_runtest_logreport(report):
    path = os.environ.get("FAILNAMES")
    if path and report.failed:
        with open(path, "a") as f:
            f.write(f"{report.when} {report.nodeid}\n")
