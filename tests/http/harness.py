"""The test harness the HTTP and console tests share: a registry of test
functions, expectations that raise AssertionError, and a loop that runs the
selected tests, prints PASS/FAIL per test and ends with "N passed, N
failed" (the line scripts/test.sh adds up)."""

import time
import traceback


class Suite:
    def __init__(self):
        self.tests = []

    def test(self, fn):
        self.tests.append(fn)
        return fn

    def run(self, only, call, servers, on_failure=None):
        """Runs each test whose name contains `only` through call(fn); stops
        when a server dies. Returns (passed, failed)."""
        passed = failed = 0
        for fn in self.tests:
            if only not in fn.__name__:
                continue
            start = time.time()
            try:
                call(fn)
                passed += 1
                print(f"PASS {fn.__name__} ({time.time() - start:.2f} s)", flush=True)
            except Exception:
                failed += 1
                print(f"FAIL {fn.__name__}", flush=True)
                traceback.print_exc()
                if on_failure:
                    on_failure(fn)
            for server in servers:
                if not server.alive():
                    print("tandemd died:\n" + server.log_tail())
                    return passed, failed + 1
        return passed, failed


def expect(cond, message="expectation failed"):
    if not cond:
        raise AssertionError(message)


def expect_eq(got, want, what=""):
    if got != want:
        raise AssertionError(f"{what}: got {got!r}, want {want!r}")
