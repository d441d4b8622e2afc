#!/usr/bin/python3
"""Browser tests of tandemd's web console: headless Chromium (Debian's
chromium and chromium-driver) driven by Selenium loads the console from a
tandemd this file starts, runs queries, watches a SUBSCRIBE receive an
INSERT made through psql, opens every view and checks the plots are Chart.js
charts with data. Screenshots go to SCREENSHOT_DIR (default
build/console-screenshots). Prints PASS/FAIL per test and ends with
"N passed, N failed"; exits non-zero when a test failed, 2 when Chromium or
Selenium is missing.

Usage: run_tests.py PATH_TO_TANDEMD [TEST_NAME_SUBSTRING]
       run_tests.py PATH_TO_TANDEMD --hydration [ROWS] [--one-runtime]
The second form only takes screenshots of the console while an index over
ROWS (default 2,000,000) rows hydrates, and reports how long the console's
reads took meanwhile (with --one-runtime: on a cluster without the
interactive runtime, for comparison).
"""

import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "http"))
from client import Server  # noqa: E402
from harness import Suite, expect  # noqa: E402

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    webdriver = None

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM = "/usr/bin/chromium"
suite = Suite()
test = suite.test


class Console:
    """A headless Chromium on the console of one tandemd."""

    def __init__(self, server, shots):
        self.server = server
        self.shots = shots
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=1400,1000", "--no-first-run", "--disable-extensions"]:
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_page_load_timeout(30)

    def url(self, path="/"):
        return f"http://127.0.0.1:{self.server.http_port}{path}"

    def open(self):
        self.driver.get(self.url())
        self.wait(lambda d: "connected as" in self.text("#status"), "the console to connect")

    def quit(self):
        self.driver.quit()

    def wait(self, cond, what, timeout=20):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(lambda d: cond(d))
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {what}; console errors: {self.errors()}")

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def finds(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def text(self, css):
        found = self.finds(css)
        return found[0].text if found else ""

    def tab(self, name):
        self.find(f'#tabs button[data-tab="{name}"]').click()
        self.wait(lambda d: self.find(f"section#{name}").is_displayed(), f"the {name} tab")

    def run_sql(self, sql):
        box = self.find("#sql")
        box.clear()
        box.send_keys(sql)
        self.find("#run").click()

    def table_rows(self, css):
        """The text of each body row's cells of the first table matching css."""
        return self.driver.execute_script(
            "const t = document.querySelector(arguments[0]);"
            "return t ? [...t.tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent)) : null;", css)

    def screenshot(self, name):
        os.makedirs(self.shots, exist_ok=True)
        path = os.path.join(self.shots, name + ".png")
        self.driver.save_screenshot(path)
        return path

    def errors(self):
        """Severe messages of the browser's console (script errors; a 401
        the login test provokes is not one)."""
        try:
            return [e["message"] for e in self.driver.get_log("browser")
                    if e["level"] == "SEVERE" and "status of 401" not in e["message"]]
        except Exception:
            return []


def psql(server, sql):
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(server.pg_port),
                    "-U", "materialize", "-d", "materialize", "-c", sql], check=True, capture_output=True,
                   timeout=60)


# ---- tests (each gets the console on the trust server, and the server)


@test
def loads_without_script_errors(c, s):
    c.open()
    expect(c.driver.title == "tandem console", c.driver.title)
    expect(c.errors() == [], c.errors())
    clusters = [o.text for o in c.finds("#cluster option")]
    expect("quickstart" in clusters, clusters)


@test
def query_result_table(c, s):
    c.open()
    c.run_sql("CREATE TABLE console_t (a int, b text); INSERT INTO console_t VALUES (1, 'one'), (2, NULL);"
              "CREATE DEFAULT INDEX ON console_t; SELECT a, b FROM console_t ORDER BY a")
    c.wait(lambda d: "done in" in c.text("#shell-state"), "the query to finish")
    rows = c.table_rows("#results table.query-result")
    expect(rows == [["1", "one"], ["2", "NULL"]], rows)
    tags = [t.text for t in c.finds("#results .tag")]
    expect(tags == ["CREATE TABLE", "INSERT 0 2", "CREATE INDEX", "SELECT 2"], tags)
    headers = [th.text for th in c.finds("#results table.query-result th")]
    expect(headers == ["a", "b"], headers)
    c.screenshot("shell-query")
    # An error shows its message and SQLSTATE; the session goes on.
    c.run_sql("SELECT * FROM no_such_table")
    c.wait(lambda d: "42P01" in c.text("#results .error"), "the error")
    c.run_sql("SET application_name = 'kept'; SHOW application_name")
    c.wait(lambda d: c.table_rows("#results table.query-result") == [["kept"]], "SET and SHOW on one session")


@test
def subscribe_updates_live(c, s):
    s.query("CREATE TABLE console_sub (k int, v text); INSERT INTO console_sub VALUES (1, 'before')")
    c.open()
    c.run_sql("SUBSCRIBE console_sub")
    c.wait(lambda d: c.table_rows("#results table.subscribe-state") == [["1", "before", "1"]], "the snapshot")
    expect("live" in c.text("#results .badge"), c.text("#results .badge"))
    psql(s, "INSERT INTO console_sub VALUES (2, 'from psql')")
    c.wait(lambda d: ["2", "from psql", "1"] in (c.table_rows("#results table.subscribe-state") or []),
           "the INSERT to appear")
    psql(s, "DELETE FROM console_sub WHERE k = 1")
    c.wait(lambda d: c.table_rows("#results table.subscribe-state") == [["2", "from psql", "1"]],
           "the DELETE to retract the row")
    updates = c.table_rows("#results table.subscribe-updates")
    expect(len(updates) == 3 and updates[0][1] == "-1", updates)
    c.screenshot("shell-subscribe")
    c.find("#stop").click()
    c.wait(lambda d: "stopped" in c.text("#shell-state"), "Stop to end the SUBSCRIBE")
    s_sub = "SELECT count(*) FROM mz_introspection.mz_dataflows WHERE name LIKE 'subscribe-%'"
    deadline = time.time() + 10
    while s.query(s_sub)[0]["rows"] != [[0]]:
        expect(time.time() < deadline, "the subscribe's dataflow was not dropped")
        time.sleep(0.1)
    c.run_sql("SELECT 41 + 1 AS answer")
    c.wait(lambda d: c.table_rows("#results table.query-result") == [["42"]], "a new session after Stop")


@test
def object_explorer(c, s):
    s.query("CREATE TABLE explore_t (id int NOT NULL, name text); CREATE VIEW explore_v AS SELECT id FROM explore_t "
            "WHERE id > 0; CREATE INDEX explore_i ON explore_v (id); "
            "CREATE MATERIALIZED VIEW explore_mv AS SELECT count(*) AS n FROM explore_t")
    c.open()
    c.tab("explorer")
    c.wait(lambda d: c.finds('a.object[data-name="explore_v"]'), "the view in the tree")
    groups = c.text('details[data-schema="public"]')
    for word in ["Tables", "Views", "Materialized views", "Indexes", "explore_mv", "explore_i"]:
        expect(word in groups, f"{word} not in {groups!r}")
    c.find('a.object[data-name="explore_t"]').click()
    c.wait(lambda d: c.table_rows("#object-detail table.columns") is not None, "the table's columns")
    cols = c.table_rows("#object-detail table.columns")
    expect(cols == [["1", "id", "integer", "false", "NULL"], ["2", "name", "text", "true", "NULL"]], cols)
    c.wait(lambda d: "explore_v (view)" in c.text("#object-detail .used-by"), "what reads the table")
    c.find('a.object[data-name="explore_v"]').click()
    c.wait(lambda d: "explore_t (table)" in c.text("#object-detail .uses"), "what the view reads")
    detail = c.text("#object-detail")
    expect("WHERE" in detail and "explore_i" in detail, detail)
    c.screenshot("explorer")
    c.find('a.object[data-name="explore_mv"]').click()
    c.wait(lambda d: "Hydration" in c.text("#object-detail") and "Freshness" in c.text("#object-detail"),
           "the materialized view's freshness and hydration")


@test
def clusters_view(c, s):
    s.query("CREATE TABLE cl_t (a int); INSERT INTO cl_t SELECT g FROM generate_series(1, 1000) AS g; "
            "CREATE INDEX cl_i ON cl_t (a); CREATE MATERIALIZED VIEW cl_mv AS SELECT count(*) AS n FROM cl_t")
    c.open()
    c.tab("clusters")
    c.wait(lambda d: any(r[0] == "quickstart" for r in (c.table_rows("table.cluster-table") or [])),
           "the cluster list")
    c.wait(lambda d: "cl_i" in c.text('section.cluster[data-cluster="quickstart"] table.dataflows'),
           "the index's dataflow")
    rows = c.table_rows('section.cluster[data-cluster="quickstart"] table.dataflows')
    row = [r for r in rows if "cl_i" in r[2]][0]
    expect(row[3] == "yes" and int(row[4]) >= 1000, row)  # hydrated, its records
    c.wait(lambda d: any(r[2] == "cl_mv" and r[3] == "yes" for r in
                         c.table_rows('section.cluster[data-cluster="quickstart"] table.dataflows')),
           "the materialized view's dataflow, hydrated")
    expect("Arrangement memory" in c.text("#cluster-list"), c.text("#cluster-list"))
    c.screenshot("clusters")


@test
def freshness_and_reads(c, s):
    s.query("CREATE TABLE fr_t (a int); INSERT INTO fr_t VALUES (7); CREATE DEFAULT INDEX ON fr_t")
    for _ in range(3):
        s.query("SELECT a FROM fr_t")
    c.open()
    c.tab("freshness")
    c.wait(lambda d: any(r[0] == "fr_t_primary_idx" for r in (c.table_rows("table.freshness") or [])),
           "the index's frontiers")
    row = [r for r in c.table_rows("table.freshness") if r[0] == "fr_t_primary_idx"][0]
    expect(row[7] == "yes", row)
    c.screenshot("freshness")
    c.tab("reads")
    c.wait(lambda d: any(r[1] == "fr_t_primary_idx" for r in (c.table_rows("table.reads") or [])), "the reads")
    reads = [r for r in c.table_rows("table.reads") if r[1] == "fr_t_primary_idx"]
    expect(len(reads) >= 3 and all(r[2] == "interactive" and r[3] == "fast_path" for r in reads), reads)
    c.screenshot("reads")


@test
def plots_are_charts_with_data(c, s):
    s.query("CREATE TABLE pl_t (a int); INSERT INTO pl_t VALUES (1); CREATE DEFAULT INDEX ON pl_t")
    c.open()
    c.tab("plots")
    points = ("const c = Chart.getChart(document.getElementById(arguments[0]));"
              "return c ? c.data.datasets.map(d => [d.label, d.data.filter(p => p.y !== null).length]) : null;")
    for _ in range(5):
        s.query("SELECT a FROM pl_t")
        time.sleep(0.3)
    c.wait(lambda d: any(n > 0 for _, n in (d.execute_script(points, "chart-reads") or [])), "read points")
    c.wait(lambda d: any(label.startswith("maintenance") and n > 0
                         for label, n in (d.execute_script(points, "chart-steps") or [])), "step points")
    c.wait(lambda d: any(label.startswith("interactive") and n > 0
                         for label, n in (d.execute_script(points, "chart-steps") or [])), "interactive steps")
    reads = dict(c.driver.execute_script(points, "chart-reads"))
    expect(reads.get("interactive fast_path", 0) >= 5, reads)
    expect(c.find("#chart-missing").get_attribute("hidden") is not None, "no missing-library message")
    c.screenshot("plots")


@test
def plots_say_when_chart_js_is_missing(c, s):
    # As on a machine without libjs-chart.js: the script does not load.
    c.driver.execute_cdp_cmd("Network.enable", {})
    c.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/vendor/chart.js/*"]})
    c.open()
    c.tab("plots")
    message = c.text("#chart-missing")
    expect("libjs-chart.js" in message and "no plots" in message, message)
    c.tab("shell")
    c.run_sql("SELECT 1 AS still_works")
    c.wait(lambda d: c.table_rows("#results table.query-result") == [["1"]], "the rest of the console")
    c.blocked_chart = True


@test
def password_login(c, s):
    a = c.auth_server
    c.driver.get(f"http://127.0.0.1:{a.http_port}/")
    c.wait(lambda d: "authentication failed" in c.text("#status"), "the refusal without credentials")
    c.find("#user").send_keys("alice")
    c.find("#password").send_keys("wrong")
    c.find("#login button").click()
    c.wait(lambda d: "authentication failed" in c.text("#status"), "the refusal of a wrong password")
    c.find("#password").clear()
    c.find("#password").send_keys("secret")
    c.find("#login button").click()
    c.wait(lambda d: c.text("#status") == "connected as alice", "the login")
    c.run_sql("SELECT current_user")
    c.wait(lambda d: c.table_rows("#results table.query-result") == [["alice"]], "the WebSocket as alice")
    c.screenshot("login")


def hydration_screenshots(tandemd, shots, rows, one_runtime=False):
    """Screenshots of the console while an index over `rows` rows hydrates,
    and how long the console's own API calls took meanwhile. With
    `one_runtime`, quickstart has no interactive runtime (every read waits
    for the maintenance workers), for comparison."""
    server = Server(tandemd, *(["--system-parameter-default", "enable_compute_interactive_runtime=off"]
                               if one_runtime else []))
    prefix = "one-runtime-hydration" if one_runtime else "hydration"
    if os.path.isdir(shots):
        for name in os.listdir(shots):
            if name.startswith(prefix + "-"):
                os.remove(os.path.join(shots, name))
    console = Console(server, shots)
    try:
        server.query("CREATE TABLE big (k int8, v text)")
        step = 500000
        for lo in range(1, rows + 1, step):
            hi = min(rows, lo + step - 1)
            server.query(f"INSERT INTO big SELECT g, md5(g::text) || md5((g + 1)::text) FROM "
                         f"generate_series({lo}, {hi}) AS g")
        console.open()
        console.tab("clusters")
        window_start = console.driver.execute_script("return performance.now()")
        start = time.time()
        server.query("CREATE INDEX big_by_v ON big (v, k)")  # returns before hydration ends
        shot = 0
        hydrated_at = None
        views = ["clusters", "freshness", "plots", "reads"]
        while time.time() - start < 300:
            state = server.query("SELECT hydrated FROM mz_internal.mz_hydration_statuses h JOIN mz_objects o "
                                 "ON o.id = h.object_id WHERE o.name = 'big_by_v'")[0]["rows"]
            if state == [[True]]:
                hydrated_at = time.time() - start
                break
            view = views[shot % len(views)]
            console.tab(view)
            time.sleep(0.4)
            console.screenshot(f"{prefix}-{shot:02d}-{view}")
            shot += 1
        window = console.driver.execute_script(
            "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/sql') && "
            "e.startTime >= arguments[0]).map(e => e.duration)", window_start)
        console.tab("shell")
        console.run_sql("SELECT count(*) FROM big")
        console.wait(lambda d: "done in" in console.text("#shell-state"), "the count", timeout=120)
        console.screenshot(f"{prefix}-done-shell")
        window.sort()
        print(f"index over {rows} rows hydrated after {hydrated_at:.1f} s" if hydrated_at else "not hydrated in 300 s")
        if window:
            print(f"{shot} screenshots during hydration; the console's /api/sql calls meanwhile: {len(window)}, "
                  f"median {window[len(window) // 2]:.1f} ms, p99 {window[len(window) * 99 // 100]:.1f} ms, "
                  f"max {window[-1]:.1f} ms")
    finally:
        console.quit()
        server.stop()


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    tandemd = sys.argv[1]
    shots = os.environ.get("SCREENSHOT_DIR", os.path.join(os.path.dirname(os.path.abspath(tandemd)), "..",
                                                          "console-screenshots"))
    shots = os.path.abspath(shots)
    if webdriver is None or not os.path.exists(CHROMEDRIVER) or not os.path.exists(CHROMIUM):
        print("browser tests need Debian's chromium, chromium-driver and python3-selenium "
              "(scripts/install-deps.sh), run with /usr/bin/python3")
        return 2
    if len(sys.argv) > 2 and sys.argv[2] == "--hydration":
        numbers = [a for a in sys.argv[3:] if a.isdigit()]
        hydration_screenshots(tandemd, shots, int(numbers[0]) if numbers else 2000000,
                              one_runtime="--one-runtime" in sys.argv[3:])
        return 0
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    if os.path.isdir(shots):
        for name in os.listdir(shots):
            if name.startswith("FAIL-"):
                os.remove(os.path.join(shots, name))
    trust = Server(tandemd)
    auth = Server(tandemd, passwords={"alice": "secret"})
    passed = failed = 0

    def call(fn):
        console = Console(trust, shots)
        console.auth_server = auth
        try:
            fn(console, trust)
            errors = console.errors()
            if getattr(console, "blocked_chart", False):  # the blocked load is the expected error
                errors = [e for e in errors if "chart.min.js" not in e]
            expect(errors == [], f"script errors in the console: {errors}")
        except Exception:
            try:
                print("screenshot:", console.screenshot("FAIL-" + fn.__name__))
            except Exception:
                pass
            raise
        finally:
            console.quit()

    try:
        passed, failed = suite.run(only, call, (trust, auth))
    finally:
        if failed:
            print("--- tandemd log (trust server), last lines:\n" + trust.log_tail())
        trust.stop()
        auth.stop()
    print(f"screenshots in {shots}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
