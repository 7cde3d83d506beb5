"""The browser table page (``pokerdraw32/server/static``) against a real ``pokerdraw32 serve``.

A person opens the lobby in headless Chromium (Debian's ``chromium`` and ``chromium-driver``,
driven by Selenium), types a name and a buy-in, joins seat 0 of a three-seat table with two rule
bots, and plays whole hands by clicking: the action buttons, a raise sized with a quick-size
button, the cards to discard and the discard button. In the middle of a hand (in the draw) the
page is reloaded: the seat is resumed with the token kept in localStorage, the same cards are
shown, and the hand goes on. After at least three finished hands a screenshot of the table is
saved (``$POKERDRAW32_ARTIFACTS`` or the test's tmp_path) and chips are checked from the page: the
stacks plus the pot, less the chips added since, never change (R9.5), and account for every
buy-in.

Skipped when selenium, /usr/bin/chromium or /usr/bin/chromedriver (or the server's extra,
``pokerdraw32[server]``) are missing. At most about three minutes, every wait bounded.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

for _module in ("starlette", "uvicorn", "websockets"):
    pytest.importorskip(_module, reason=f"{_module} is missing: pip install 'pokerdraw32[server]'")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is missing: pip install selenium")

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="needs /usr/bin/chromium and /usr/bin/chromedriver (apt-get install chromium chromium-driver)",
)

TABLE = {"id": "t1", "title": "Test table", "rules": {"structure": "no-limit", "sb": 1, "bb": 2}, "seats": 3,
         "bots": {"1": "rule", "2": "rule"}, "decision_time": 30, "seed": 7}
MY_CHIPS = 150
HANDS = 3               # finished hands dealt to the person
TIME_LIMIT = 170.0      # seconds for the whole test: every wait below ends by then
_deadline = [0.0]       # time.monotonic() at which the running test's waits give up

# What the page shows, read in one script run (one consistent DOM; log entries up to the state).
SNAPSHOT_JS = """
const body = document.body;
const seq = Number(body.dataset.seq);
const log = [...document.querySelectorAll("#log li")];
const hands = (kind) => log.filter((li) => li.dataset.kind === kind).map((li) => Number(li.dataset.hand));
return {
  seq,
  you: body.dataset.you,
  hand: Number(body.dataset.hand),
  phase: body.dataset.phase,
  myTurn: body.dataset.myTurn === "true",
  actions: [...document.querySelectorAll("#action-buttons button")].map((b) => b.dataset.action),
  drawing: !document.querySelector("#draw-controls").hidden,
  cards: [...document.querySelectorAll("#my-cards .my-card")].map((c) => c.dataset.card),
  myStack: document.querySelector("#my-stack") ? Number(document.querySelector("#my-stack").dataset.stack) : null,
  names: Object.fromEntries([...document.querySelectorAll("#seats .seat[data-name]")]
                              .map((e) => [e.dataset.seat, e.dataset.name])),
  stacks: [...document.querySelectorAll("#seats .seat-stack")].map((e) => Number(e.dataset.stack)),
  pot: Number(document.querySelector("#pot").dataset.amount),
  added: log.filter((li) => li.dataset.kind === "chips_added" && Number(li.dataset.seq) <= seq)
            .map((li) => Number(li.dataset.chips)),
  dealt: hands("deal_hole"),
  ended: hands("hand_end"),
  logLines: log.length,
};
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(autouse=True)
def time_limit() -> None:
    """Bound the test in time (the server's start and the browser's included)."""
    _deadline[0] = time.monotonic() + TIME_LIMIT


def time_left(at_most: float) -> float:
    left = _deadline[0] - time.monotonic()
    if left <= 0:
        pytest.fail(f"the test ran for more than {TIME_LIMIT} s")
    return min(at_most, left)


@pytest.fixture
def server(tmp_path: Path, time_limit: None) -> Iterator[dict[str, Any]]:
    """A real server in a subprocess, on a free port, with the test table; stopped afterwards."""
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps([TABLE]), encoding="utf-8")
    port = free_port()
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pokerdraw32", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", str(tmp_path / "db.sqlite"), "--tables", str(tables), "--hand-pause", "0.3",
             "--bot-delay", "0.1"],
            stdout=log_file, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + time_left(30)
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the server exited with {proc.returncode}:\n{log_path.read_text(errors='replace')}")
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not answer /healthz in time:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.2)
        yield {"url": url, "log": log_path, "proc": proc}
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Headless Chromium through Debian's chromedriver (no Selenium Manager download)."""
    monkeypatch.setenv("SE_OFFLINE", "true")
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,950"):
        options.add_argument(arg)
    options.binary_location = str(CHROMIUM)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(10)
    try:
        yield driver
    finally:
        driver.quit()


def snapshot(driver: Any) -> dict[str, Any]:
    return driver.execute_script(SNAPSHOT_JS)


def wait_for(driver: Any, what: str, condition: Any, timeout: float = 30) -> Any:
    """WebDriverWait (within the test's time limit) with a message that says what we waited for
    and what the page showed."""
    timeout = time_left(timeout)
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition)
    except TimeoutException:
        pytest.fail(f"waited {timeout} s for {what}; the page showed {snapshot(driver)}")


def click(driver: Any, css: str) -> None:
    driver.find_element(By.CSS_SELECTOR, css).click()


def choose_seat(driver: Any, seat: str) -> bool:
    """Pick a seat in the lobby's join form (its options are redrawn when a seat is taken)."""
    try:
        Select(driver.find_element(By.ID, "join-seat")).select_by_value(seat)
    except StaleElementReferenceException:
        return False
    return driver.find_element(By.ID, "join-seat").get_attribute("value") == seat


def decide(driver: Any, page: dict[str, Any], played: dict[str, int]) -> None:
    """One decision, by clicking as a person would: in the draw, replace the two first cards
    (or stand pat every third draw); in a betting round, raise the minimum once, bet the minimum
    once, check, call small amounts, fold to big ones."""
    actions = page["actions"]
    if page["drawing"]:
        if (played["draws"] + 1) % 3 == 0:
            click(driver, "#stand-pat-button")
            played["draws"] += 1
            return
        for card in page["cards"][:2]:      # the cards are redrawn on each click: find them by data-card
            if not driver.find_elements(By.CSS_SELECTOR, f'.my-card.selected[data-card="{card}"]'):
                click(driver, f'.my-card[data-card="{card}"]')
        wait_for(driver, "two cards selected",
                 lambda d: len(d.find_elements(By.CSS_SELECTOR, ".my-card.selected")) == 2, 5)
        button = driver.find_element(By.ID, "discard-button")
        assert button.text == "Discard 2"
        button.click()
        played["draws"] += 1
        return
    for kind in ("raise", "bet"):
        if kind in actions and not played[kind]:
            played[kind] += 1
            click(driver, '#sizing button[data-size="min"]')
            click(driver, f'#action-buttons button[data-action="{kind}"]')
            return
    if "check" in actions:
        click(driver, 'button[data-action="check"]')
    elif "call" in actions:
        call = driver.find_element(By.CSS_SELECTOR, 'button[data-action="call"]')
        amount = int(call.text.split()[-1])
        click(driver, 'button[data-action="call"]' if amount <= 40 else 'button[data-action="fold"]')
    else:
        click(driver, f'button[data-action="{actions[0]}"]')


def test_play_three_hands_with_a_reload(server: dict[str, Any], browser: Any, tmp_path: Path) -> None:
    driver = browser
    url = server["url"]

    # the lobby: the table is listed; join seat 0 with a name and a buy-in
    driver.get(f"{url}/")
    default_buy_in = int(wait_for(driver, "the table in the lobby", lambda d: d.execute_script(
        'const t = document.querySelector(\'.table-entry[data-table="t1"]\'); return t && t.dataset.defaultBuyIn;')))
    wait_for(driver, "the join form", lambda d: d.find_elements(By.CSS_SELECTOR, '#join-seat option[value="0"]'))
    driver.find_element(By.ID, "join-name").send_keys("alice")
    chips = driver.find_element(By.ID, "join-chips")
    chips.clear()
    chips.send_keys(str(MY_CHIPS))
    wait_for(driver, "seat 0 chosen", lambda d: choose_seat(d, "0"), 10)
    driver.find_element(By.ID, "join-button").click()

    # the table page, seat 0
    wait_for(driver, "the table page", lambda d: d.current_url.endswith("/table/t1"))
    wait_for(driver, "our seat", lambda d: snapshot(d)["you"] == "0" and snapshot(d)["myStack"] is not None)
    first = snapshot(driver)
    stored = driver.execute_script('return JSON.parse(localStorage.getItem("pd32.seat.t1"))')
    assert stored["table"] == "t1" and stored["seat"] == 0 and stored["token"] and stored["last_seq"] > 0
    assert first["names"] == {"0": "alice", "1": "bot-1", "2": "bot-2"}

    played = {"draws": 0, "raise": 0, "bet": 0}
    reloaded_in: int | None = None

    def finished(page: dict[str, Any]) -> set[int]:
        return set(page["dealt"]) & set(page["ended"])

    def wanted(page: dict[str, Any]) -> dict[str, Any] | None:
        busted = page["myStack"] == 0 and not page["cards"]
        over = len(finished(page)) >= HANDS and reloaded_in is not None
        return page if page["myTurn"] or busted or over else None

    while True:
        page = wait_for(driver, "our turn or the end of the game", lambda d: wanted(snapshot(d)), 45)
        if page["myStack"] == 0 and not page["cards"]:
            # lost everything: buy in again between hands (R10.4, R3.6), as a person would
            amount = driver.find_element(By.ID, "add-chips-amount")
            amount.clear()
            amount.send_keys(str(MY_CHIPS))
            click(driver, "#add-chips-button")
            wait_for(driver, "the chips added", lambda d: snapshot(d)["myStack"] != 0, 15)
            continue
        if not page["myTurn"]:
            break
        if page["drawing"] and reloaded_in is None:
            # reload in the middle of the hand: the seat is resumed, the same cards are shown
            reloaded_in = page["hand"]
            driver.refresh()
            again = wait_for(driver, "our turn again after the reload",
                             lambda d: (lambda p: p if p["myTurn"] and p["drawing"] else None)(snapshot(d)), 30)
            assert again["hand"] == page["hand"]
            assert sorted(again["cards"]) == sorted(page["cards"]) and len(again["cards"]) == 5
            assert again["logLines"] >= page["logLines"]          # the log is kept over the reload
            page = again
        try:
            decide(driver, page, played)
        except StaleElementReferenceException:
            continue                                               # a new state redrew the controls: look again

    final = snapshot(driver)
    done = finished(final)
    assert len(done) >= HANDS, final
    assert reloaded_in in done, f"the hand of the reload ({reloaded_in}) did not finish: {final}"
    assert played["draws"] >= 1

    artifacts = Path(os.environ.get("POKERDRAW32_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    shot = artifacts / "browser-final.png"
    assert driver.save_screenshot(str(shot))
    print(f"screenshot: {shot}")
    print(f"hands played to the end: {sorted(done)}, reloaded in hand {reloaded_in}, clicks: {played}")

    # chips (R9.5): stacks + pot, less the chips added since, are what they were when we sat down;
    # and that is our buy-in plus the bots' buy-ins and re-buys (both the table's default buy-in)
    def base(page: dict[str, Any]) -> int:
        return sum(page["stacks"]) + page["pot"] - sum(page["added"])

    assert len(final["stacks"]) == 3
    assert base(final) == base(first), (first, final)
    bots = base(first) - MY_CHIPS
    assert bots >= 2 * default_buy_in and bots % default_buy_in == 0, (default_buy_in, first)

    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    server_log = server["log"].read_text(errors="replace")
    assert "Traceback" not in server_log, server_log
