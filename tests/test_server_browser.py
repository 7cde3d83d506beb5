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

The findings of issue 27 (part 4), each against the real server: a bet or raise typed below the
minimum (or above the maximum) names the limit and its rule and cannot be sent, the legal range is
always shown (fixed-limit: the one amount); a busted seat gets a re-buy panel with the table's
limits, and the chips fields empty once chips are added; a tab opened afresh (no stored log)
shows the whole current hand, "Dealt to you" included, and a reload shows no line twice; every
kind of log line is plain words with its rule id in the tooltip, never in the text.

Skipped when selenium, /usr/bin/chromium or /usr/bin/chromedriver (or the server's extra,
``pokerdraw32[server]``) are missing. At most about three minutes, every wait bounded.
"""

from __future__ import annotations

import json
import os
import queue
import re
import socket
import subprocess
import sys
import threading
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
  rebuy: !document.querySelector("#rebuy").hidden,
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
def start_server(tmp_path: Path, time_limit: None) -> Iterator[Any]:
    """``start_server(tables)``: a real server in a subprocess, on a free port, with ``tables``
    (default: the test table); stopped afterwards."""
    started: list[subprocess.Popen[bytes]] = []

    def start(tables: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        assert not started, "one server a test"
        config = tmp_path / "tables.json"
        config.write_text(json.dumps(tables or [TABLE]), encoding="utf-8")
        port = free_port()
        log_path = tmp_path / "server.log"
        with open(log_path, "wb") as log_file:
            proc = subprocess.Popen(
                [sys.executable, "-m", "pokerdraw32", "serve", "--host", "127.0.0.1", "--port", str(port),
                 "--db", str(tmp_path / "db.sqlite"), "--tables", str(config), "--hand-pause", "0.3",
                 "--bot-delay", "0.1"],
                stdout=log_file, stderr=subprocess.STDOUT)
        started.append(proc)
        return wait_healthy(proc, f"http://127.0.0.1:{port}", log_path)

    try:
        yield start
    finally:
        for proc in started:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


@pytest.fixture
def server(start_server: Any) -> dict[str, Any]:
    """A real server with the test table."""
    return dict(start_server())


def wait_healthy(proc: subprocess.Popen[bytes], url: str, log_path: Path) -> dict[str, Any]:
    """Wait for the server's /healthz; its url, log and process."""
    deadline = time.monotonic() + time_left(30)
    while True:
        if proc.poll() is not None:
            pytest.fail(f"the server exited with {proc.returncode}:\n{log_path.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return {"url": url, "log": log_path, "proc": proc}
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"the server did not answer /healthz in time:\n{log_path.read_text(errors='replace')}")
        time.sleep(0.2)


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


def join_from_lobby(driver: Any, url: str, table: str, name: str, chips: int | None, seat: str) -> int:
    """Join ``seat`` of ``table`` from the lobby as a person would (``chips``: None keeps the
    form's default, the table's default buy-in); wait for the table page to show our seat.
    Returns the table's default buy-in."""
    driver.get(f"{url}/")
    default_buy_in = int(wait_for(driver, "the table in the lobby", lambda d: d.execute_script(
        f'const t = document.querySelector(\'.table-entry[data-table="{table}"]\');'
        ' return t && t.dataset.defaultBuyIn;')))
    choose = driver.find_element(By.CSS_SELECTOR, f'.table-entry[data-table="{table}"] button[data-choose]')
    choose.click()
    wait_for(driver, "the join form", lambda d: d.find_elements(By.CSS_SELECTOR, f'#join-seat option[value="{seat}"]'))
    driver.find_element(By.ID, "join-name").send_keys(name)
    if chips is not None:
        field = driver.find_element(By.ID, "join-chips")
        field.clear()
        field.send_keys(str(chips))
    wait_for(driver, f"seat {seat} chosen", lambda d: choose_seat(d, seat), 10)
    driver.find_element(By.ID, "join-button").click()
    wait_for(driver, "the table page", lambda d: d.current_url.endswith(f"/table/{table}"))
    wait_for(driver, "our seat", lambda d: snapshot(d)["you"] == seat and snapshot(d)["myStack"] is not None)
    return default_buy_in


LOG_JS = """
return [...document.querySelectorAll("#log li")].map((li) => ({
  seq: Number(li.dataset.seq), hand: Number(li.dataset.hand), kind: li.dataset.kind, rule: li.dataset.rule || "",
  title: li.title, text: li.textContent}));
"""
RULE_ID = re.compile(r"\bR\d+(?:\.\d+)?\b")


def log_lines(driver: Any) -> list[dict[str, Any]]:
    """The table log's lines: seq, hand, kind, rule, title (the tooltip) and text."""
    return list(driver.execute_script(LOG_JS))


def check_whole_hand(lines: list[dict[str, Any]], hand: int) -> list[dict[str, Any]]:
    """The log shows hand ``hand`` from its start (the hand's start, the blinds, our cards), and
    no entry twice.  Returns the hand's lines."""
    seqs = [line["seq"] for line in lines]
    assert len(seqs) == len(set(seqs)), f"a log entry shown twice: {lines}"
    ours = [line for line in lines if line["hand"] == hand]
    kinds = [line["kind"] for line in ours]
    assert kinds[:1] == ["hand_start"] and "post_blind" in kinds, ours
    assert any(line["kind"] == "deal_hole" and line["text"].startswith("Dealt to you: ") for line in ours), ours
    return ours


def my_turn(driver: Any, what: str = "our turn", timeout: float = 45) -> dict[str, Any]:
    return dict(wait_for(driver, what, lambda d: (lambda p: p if p["myTurn"] else None)(snapshot(d)), timeout))


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

    # the lobby: the table is listed; join seat 0 with a name and a buy-in; the table page, seat 0
    default_buy_in = join_from_lobby(driver, url, "t1", "alice", MY_CHIPS, "0")
    first = snapshot(driver)
    stored = driver.execute_script('return JSON.parse(localStorage.getItem("pd32.seat.t1"))')
    assert stored["table"] == "t1" and stored["seat"] == 0 and stored["token"] and stored["last_seq"] > 0
    assert first["names"] == {"0": "alice", "1": "bot-1", "2": "bot-2"}

    played = {"draws": 0, "raise": 0, "bet": 0}
    reloaded_in: int | None = None

    def finished(page: dict[str, Any]) -> set[int]:
        return set(page["dealt"]) & set(page["ended"])

    def wanted(page: dict[str, Any]) -> dict[str, Any] | None:
        busted = page["rebuy"]
        over = len(finished(page)) >= HANDS and reloaded_in is not None
        return page if page["myTurn"] or busted or over else None

    while True:
        page = wait_for(driver, "our turn or the end of the game", lambda d: wanted(snapshot(d)), 45)
        if page["rebuy"]:
            # lost everything: buy in again between hands (R10.4, R3.6), as a person would
            wait_for(driver, "the re-buy panel", lambda d: d.find_element(By.ID, "rebuy").is_displayed(), 10)
            amount = driver.find_element(By.ID, "rebuy-amount")
            amount.clear()
            amount.send_keys(str(MY_CHIPS))
            click(driver, "#rebuy-button")
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
            check_whole_hand(log_lines(driver), page["hand"])      # the whole hand, nothing twice
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


# ---------------------------------------------------------------------- the page's findings (issue 27, part 4)

def sizing(driver: Any) -> dict[str, Any]:
    """The sizing controls and the bet/raise button as shown."""
    return dict(driver.execute_script("""
        const hint = document.querySelector("#sizing-hint");
        const field = document.querySelector("#bet-amount");
        const button = document.querySelector('#action-buttons button[data-action="bet"],'
                                               + ' #action-buttons button[data-action="raise"]');
        return {limits: document.querySelector("#sizing-limits").textContent, min: field.min, max: field.max,
                placeholder: field.placeholder, fieldShown: !field.hidden, invalid: field.classList.contains("invalid"),
                hint: hint.hidden ? null : hint.textContent, rule: hint.dataset.rule,
                button: button && button.textContent, enabled: Boolean(button) && !button.disabled,
                legal: app.state.view.hand.legal};"""))


def type_amount(driver: Any, amount: int) -> dict[str, Any]:
    field = driver.find_element(By.ID, "bet-amount")
    field.clear()
    field.send_keys(str(amount))
    return sizing(driver)


def moved_on(driver: Any, seq: int) -> None:
    """Wait for the page to show a state after entry ``seq`` (our action was taken)."""
    wait_for(driver, "our action taken", lambda d: snapshot(d)["seq"] > seq, 15)


def answer(driver: Any, page: dict[str, Any]) -> None:
    """A turn we do not study: stand pat, check or call."""
    if page["drawing"]:
        click(driver, "#stand-pat-button")
    else:
        kind = next(k for k in ("check", "call", "fold") if k in page["actions"])
        click(driver, f'#action-buttons button[data-action="{kind}"]')


def sized_turn(driver: Any) -> tuple[dict[str, Any], str]:
    """Play on (standing pat, checking, calling) until a turn offers a bet or a raise; that turn
    and the kind offered."""
    while True:
        page = my_turn(driver, "a turn with a bet or a raise")
        kind = next((k for k in ("raise", "bet") if k in page["actions"]), None)
        if kind and not page["drawing"]:
            return page, kind
        try:
            answer(driver, page)
        except StaleElementReferenceException:
            continue
        moved_on(driver, page["seq"])


def test_a_raise_below_the_minimum_names_the_minimum_and_cannot_be_sent(server: dict[str, Any],
                                                                         browser: Any) -> None:
    driver = browser
    join_from_lobby(driver, server["url"], "t1", "alice", MY_CHIPS, "0")
    _, kind = sized_turn(driver)
    shown = sizing(driver)
    lo, hi = shown["legal"]["min_to"], shown["legal"]["max_to"]
    assert lo < hi, shown                                   # no-limit: a range
    # the legal range is in sight, and is the field's min and max
    assert shown["limits"].startswith(f"min {lo}, max {hi}"), shown
    assert (shown["min"], shown["max"], shown["placeholder"]) == (str(lo), str(hi), f"{lo}–{hi}")
    assert shown["hint"] is None and shown["enabled"] and shown["button"].startswith(f"{kind.capitalize()}")
    verb, to = ("raise", "to ") if kind == "raise" else ("bet", "")

    # the showdown choice said in advance stays chosen on the page (the view says "muck", R9.3)
    Select(driver.find_element(By.ID, "showdown-choice")).select_by_value("muck")
    wait_for(driver, "the choice in the state", lambda d: d.execute_script(
        'return app.state.view.hand.showdown_choice === "muck"'), 10)
    assert driver.find_element(By.ID, "showdown-choice").get_attribute("value") == "muck"

    # too small: a hint names the minimum (and its rule), the button is disabled
    small = type_amount(driver, lo - 1)
    assert small["hint"] == f"Too small: the minimum {verb} is {to}{lo}. {small['rule']}", small
    assert small["rule"] == ("R3.4" if kind == "raise" else "R7.2")
    assert small["invalid"] and not small["enabled"], small
    # too large: the maximum
    large = type_amount(driver, hi + 1)
    assert large["hint"] is not None and large["hint"].startswith(f"Too large: the maximum {verb} is {to}{hi} ("), large
    assert large["rule"] == "R3.4" and not large["enabled"]
    # the minimum itself: no hint, the button says it and sends it
    good = type_amount(driver, lo)
    assert good["hint"] is None and not good["invalid"] and good["enabled"], good
    assert good["button"].startswith(f"{'Raise to' if kind == 'raise' else 'Bet'} {lo}"), good
    click(driver, f'#action-buttons button[data-action="{kind}"]')
    said = f"You raise to {lo}" if kind == "raise" else f"You bet {lo}"
    line = wait_for(driver, "our raise in the log", lambda d: next(
        (x for x in log_lines(d) if x["kind"] == kind and x["text"].startswith(said)), None), 15)
    assert line["rule"].startswith("R3.4") and line["title"].startswith("R3.4: "), line
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


FIXED = {"id": "fl", "title": "Fixed-limit heads-up", "rules": {"structure": "fixed-limit", "sb": 2, "bb": 4},
         "seats": 2, "bots": {"1": "rule"}, "decision_time": 30, "seed": 5}


def test_fixed_limit_shows_the_one_amount_without_a_field(start_server: Any, browser: Any) -> None:
    driver = browser
    server = start_server([FIXED])
    join_from_lobby(driver, server["url"], "fl", "alice", None, "0")
    _, kind = sized_turn(driver)
    shown = sizing(driver)
    amount = shown["legal"]["min_to"]
    assert shown["legal"]["max_to"] == amount                     # R3.4: one amount
    assert shown["limits"] == f"fixed: {amount}" and not shown["fieldShown"], shown
    assert shown["enabled"] and shown["button"] == f"{'Raise to' if kind == 'raise' else 'Bet'} {amount}", shown
    click(driver, f'#action-buttons button[data-action="{kind}"]')
    wait_for(driver, "our fixed raise in the log", lambda d: any(
        x["kind"] == kind and x["text"].startswith("You ") and f" {amount}" in x["text"] for x in log_lines(d)), 15)


HEADS_UP = {"id": "hu", "title": "Heads-up no-limit", "rules": {"structure": "no-limit", "sb": 1, "bb": 2},
            "seats": 2, "decision_time": 30, "seed": 11}


class CallingStation(threading.Thread):
    """A player on a WebSocket of its own: calls or checks, stands pat, buys in again (the
    table's maximum) when it has lost everything; the test may ask it to ``sit_out``."""

    def __init__(self, url: str, table: str, seat: int, chips: int) -> None:
        super().__init__(daemon=True)
        self.url = url.replace("http", "ws", 1) + "/ws"
        self.table, self.seat, self.chips = table, seat, chips
        self.commands: queue.Queue[dict[str, Any]] = queue.Queue()
        self.stopped = threading.Event()
        self.errors: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    def run(self) -> None:
        from websockets.sync.client import connect
        with connect(self.url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "table": self.table, "name": "carol", "seat": self.seat,
                                "chips": self.chips}))
            self.play(ws)

    def play(self, ws: Any) -> None:
        answered = 0
        while not self.stopped.is_set():
            try:
                data = json.loads(ws.recv(timeout=0.1))
            except TimeoutError:
                data = []
            for msg in data if isinstance(data, list) else [data]:
                if msg["type"] == "state":
                    self.state = msg
                elif msg["type"] == "error" and msg["code"] not in ("stale", "not_your_turn"):
                    self.errors.append(msg)
            while not self.commands.empty():
                ws.send(json.dumps(self.commands.get()))
            state = self.state
            if state is None or state["seq"] <= answered:
                continue
            view = state["view"]
            me = next(s for s in view["seats"] if s["seat"] == self.seat)
            legal = view["hand"] and view["hand"].get("legal")
            if legal:
                kinds = legal["kinds"]
                kind = "discard" if "discard" in kinds else "call" if "call" in kinds else "check"
                ws.send(json.dumps({"type": "act", "kind": kind, "seq": state["seq"],
                                         **({"cards": []} if kind == "discard" else {})}))
                answered = state["seq"]
            elif me["stack"] == 0 and not me["in_hand"] and not me["sitting_out"]:
                ws.send(json.dumps({"type": "add_chips", "chips": self.chips}))
                answered = state["seq"]

    def stop(self) -> None:
        self.stopped.set()
        self.join(5)


def test_a_busted_seat_is_offered_a_re_buy_and_the_chips_fields_empty_after_adding(start_server: Any,
                                                                                    browser: Any) -> None:
    driver = browser
    server = start_server([HEADS_UP])
    url = server["url"]
    station = CallingStation(url, "hu", 1, 200)
    station.start()
    try:
        join_from_lobby(driver, url, "hu", "alice", 20, "0")        # the minimum buy-in, 20·sb (R10.1)
        # all-in at every turn against a player who calls everything, until we have lost it all
        while True:
            page = wait_for(driver, "our turn, or no chips left", lambda d: (
                lambda p: p if p["myTurn"] or p["rebuy"] else None)(snapshot(d)), 45)
            if not page["myTurn"]:
                break
            try:
                if page["drawing"]:
                    click(driver, "#stand-pat-button")
                elif "raise" in page["actions"] or "bet" in page["actions"]:
                    click(driver, '#sizing button[data-size="allin"]')
                    kind = "raise" if "raise" in page["actions"] else "bet"
                    click(driver, f'#action-buttons button[data-action="{kind}"]')
                else:
                    answer(driver, page)
            except StaleElementReferenceException:
                continue
            moved_on(driver, page["seq"])

        # the re-buy panel, with the table's limits and its default buy-in filled in
        panel = wait_for(driver, "the re-buy panel", lambda d: (
            lambda e: e if e.is_displayed() else None)(d.find_element(By.ID, "rebuy")), 10)
        assert "You have no chips left." in panel.text and "Buy in again" in panel.text
        field = driver.find_element(By.ID, "rebuy-amount")
        assert (field.get_attribute("value"), field.get_attribute("min"), field.get_attribute("max")) == (
            "200", "20", "200")
        assert driver.find_element(By.ID, "rebuy-limits").text == "at least 20, at most 200"
        assert not driver.find_element(By.CSS_SELECTOR, ".add-chips").is_displayed()
        # below the minimum buy-in: said, nothing sent
        field.clear()
        field.send_keys("10")
        click(driver, "#rebuy-button")
        assert driver.find_element(By.ID, "message").text.startswith("You can add from 20 to 200 chips.")
        assert snapshot(driver)["myStack"] == 0

        # the other player sits out, so that no hand starts and chips can be added again after
        station.commands.put({"type": "sit_out"})
        wait_for(driver, "carol sitting out",
                 lambda d: d.find_elements(By.CSS_SELECTOR, '.seat.sitting-out[data-seat="1"]'), 10)
        field.clear()
        field.send_keys("50")
        click(driver, "#rebuy-button")
        wait_for(driver, "the chips bought", lambda d: snapshot(d)["myStack"] == 50, 15)
        wait_for(driver, "the re-buy panel gone", lambda d: not d.find_element(By.ID, "rebuy").is_displayed(), 10)
        assert driver.find_element(By.ID, "rebuy-amount").get_attribute("value") == ""
        # adding chips: the field empties once they are added
        more = driver.find_element(By.ID, "add-chips-amount")
        assert more.is_displayed() and more.get_attribute("value") == ""
        assert more.get_attribute("placeholder") == "up to 150" and more.get_attribute("max") == "150"
        more.send_keys("30")
        click(driver, "#add-chips-button")
        wait_for(driver, "the chips added", lambda d: snapshot(d)["myStack"] == 80, 15)
        wait_for(driver, "the chips field emptied",
                 lambda d: d.find_element(By.ID, "add-chips-amount").get_attribute("value") == "", 10)
        added = [x for x in log_lines(driver) if x["kind"] == "chips_added" and x["text"].startswith("You add")]
        assert [x["text"] for x in added] == ["You add 50 chips", "You add 30 chips"], added
        assert all(x["title"].startswith("R10.1: ") for x in added)
        assert not station.errors, station.errors
    finally:
        station.stop()
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def test_a_new_tab_shows_the_whole_current_hand(server: dict[str, Any], browser: Any) -> None:
    """The seat resumed in a tab of its own (its sessionStorage empty: no stored log) shows the
    current hand from its start, "Dealt to you" included; a reload there shows it once."""
    driver = browser
    url = server["url"]
    join_from_lobby(driver, url, "t1", "alice", MY_CHIPS, "0")
    page = my_turn(driver)
    before = check_whole_hand(log_lines(driver), page["hand"])
    # our first hand since sitting down at a running table: an entry bet, unless the big blind is ours (R10.2)
    posts = [x["text"] for x in before if x["kind"] == "post_blind" and x["text"].startswith("You ")]
    assert any("an entry bet" in t or t.startswith("You post the big blind") for t in posts), posts
    assert not any("missed" in t for t in posts), posts
    first_tab = driver.current_window_handle

    driver.switch_to.new_window("tab")
    driver.get(f"{url}/table/t1")
    again = my_turn(driver, "our turn in the new tab", 30)
    assert again["hand"] == page["hand"] and sorted(again["cards"]) == sorted(page["cards"])
    after = check_whole_hand(log_lines(driver), page["hand"])
    assert [(x["seq"], x["text"]) for x in after] == [(x["seq"], x["text"]) for x in before]

    driver.refresh()                            # a reload of the new tab: the same lines, none twice
    my_turn(driver, "our turn after a reload", 30)
    reloaded = check_whole_hand(log_lines(driver), page["hand"])
    assert [(x["seq"], x["text"]) for x in reloaded] == [(x["seq"], x["text"]) for x in before]

    driver.switch_to.window(first_tab)          # the first tab was told
    wait_for(driver, "the first tab replaced",
             lambda d: "another window or tab" in d.find_element(By.ID, "message").text, 10)


# an example of every event the page logs: the engine's kinds and the server's table events
EVENT_SAMPLES: list[dict[str, Any]] = [
    {"kind": "hand_start", "hand": 7, "button": 1, "seats": [0, 1, 2, 3]},
    {"kind": "post_blind", "seat": 1, "amount": 1, "blind": "small", "all_in": False},
    {"kind": "post_blind", "seat": 2, "amount": 2, "blind": "big", "all_in": True},
    {"kind": "post_blind", "seat": 3, "amount": 4, "blind": "over", "all_in": False},
    {"kind": "post_blind", "seat": 1, "amount": 4, "blind": "live", "all_in": False},    # seat 1: new
    {"kind": "post_blind", "seat": 2, "amount": 4, "blind": "live", "all_in": False},    # seat 2: played before
    {"kind": "post_blind", "seat": 4, "amount": 4, "blind": "live", "all_in": False},    # seat 4: not known
    {"kind": "post_blind", "seat": 2, "amount": 1, "blind": "dead", "all_in": False},
    {"kind": "deal_hole", "seat": 0, "cards": ["Ah", "Kh", "Qh", "Jh", "7c"]},
    {"kind": "deal_hole", "seat": 1, "hidden": 5},
    {"kind": "fold", "seat": 1}, {"kind": "check", "seat": 0},
    {"kind": "call", "seat": 2, "amount": 4, "all_in": False},
    {"kind": "bet", "seat": 0, "amount": 8, "all_in": False, "full": True},
    {"kind": "raise", "seat": 3, "amount": 12, "all_in": True, "full": False},
    {"kind": "split", "seat": 0}, {"kind": "decline", "seat": 2},
    {"kind": "timeout", "seat": 1, "rule": "R7.3"}, {"kind": "timeout", "seat": 0, "rule": "R6.3"},
    {"kind": "raise_withdrawn", "seat": 0, "rule": "R7.3"},
    {"kind": "discard", "seat": 0, "amount": 2, "cards": ["7c", "Jh"]},
    {"kind": "discard", "seat": 2, "amount": 3, "hidden": 3}, {"kind": "discard", "seat": 3, "amount": 0},
    {"kind": "reshuffle"},
    {"kind": "deal_draw", "seat": 0, "cards": ["9d", "9s"], "reshuffled": True},
    {"kind": "deal_draw", "seat": 2, "hidden": 3, "reshuffled": False},
    {"kind": "round_end", "amount": 30, "round": "first-round"},
    {"kind": "return_uncalled", "seat": 3, "amount": 6},
    {"kind": "show", "seat": 2, "cards": ["Ah", "Ad", "Kc", "Ks", "7h"], "hand": "two pair, aces and kings",
     "value": 123},
    {"kind": "muck", "seat": 1},
    {"kind": "award", "amount": 40, "pot": 0, "winners": [2], "shared": False},
    {"kind": "award", "amount": 12, "pot": 1, "winners": [0, 3], "shared": True},
    {"kind": "hand_end", "stacks": [100, 90, 120, 0]},
    {"kind": "seated", "seat": 4, "name": "dan", "chips": 150, "bot": None},
    {"kind": "chips_added", "seat": 0, "chips": 50},
    {"kind": "sat_out", "seat": 1, "reason": "player"}, {"kind": "sat_out", "seat": 2, "reason": "disconnected"},
    {"kind": "sat_out", "seat": 3, "reason": "cannot_buy_in"},
    {"kind": "sat_in", "seat": 1, "reason": "player"}, {"kind": "sat_in", "seat": 2, "reason": "returned"},
    {"kind": "left", "seat": 3, "name": "bot-3", "chips": 214},
    {"kind": "time_bank", "seat": 0, "used": 3.2, "left": 56.8},
]
TABLE_EVENT_KINDS = {"hand_start", "seated", "chips_added", "sat_out", "sat_in", "left", "time_bank"}
NO_RULE = {"hand_end", "left", "time_bank"}          # no rule of RULES.md to cite


def test_log_lines_are_plain_words_with_the_rule_in_a_tooltip(server: dict[str, Any], browser: Any) -> None:
    import pokerdraw32
    from pokerdraw32.actions import EventKind
    rules_md = Path(pokerdraw32.__file__).with_name("RULES.md").read_text(encoding="utf-8")
    rule_ids = set(re.findall(r"^\* (R\d+\.\d+) ", rules_md, re.MULTILINE))
    assert {e["kind"] for e in EVENT_SAMPLES} == {k.value for k in EventKind} | TABLE_EVENT_KINDS

    driver = browser
    driver.get(f"{server['url']}/table/t1")          # an onlooker: the two bots play

    def whole_hand(lines: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        kinds = [x["kind"] for x in lines]
        return lines if "hand_start" in kinds and "award" in kinds[kinds.index("hand_start"):] else None

    lines = wait_for(driver, "a whole hand in the log", lambda d: whole_hand(log_lines(d)), 45)
    summaries = driver.execute_script("return RULE_SUMMARY")
    assert set(summaries) <= rule_ids, set(summaries) - rule_ids
    for line in lines:                                 # what the page wrote
        assert not RULE_ID.search(line["text"]), line
        if line["kind"] not in NO_RULE:
            assert line["rule"] and line["title"].startswith(line["rule"].split()[0] + ": "), line
    blind = next(x for x in lines if x["kind"] == "post_blind")
    assert blind["title"].startswith("R4.2: Blinds are forced bets"), blind

    # every kind of event, as a seat and as an onlooker
    described = driver.execute_script("""
        const [samples, you] = arguments;
        const saved = [app.you, app.seatSeen, app.names, app.handSeq];
        // seat 1 sat down at entry 5 (new), seat 2 was dealt in to the hand of entry 3, this hand began at 10
        Object.assign(app, {you, seatSeen: {1: {sat: 5}, 2: {sat: 1, dealt: 3}}, handSeq: 10,
                            names: {0: "ann", 1: "bob", 2: "cy", 3: "di"}});
        try { return samples.map((ev) => describeEvent(ev, 7)); }
        finally { [app.you, app.seatSeen, app.names, app.handSeq] = saved; }""", EVENT_SAMPLES, 0)
    onlooker = driver.execute_script("""
        const [samples] = arguments;
        const saved = [app.you, app.seatSeen];
        Object.assign(app, {you: null, seatSeen: {}});
        try { return samples.map((ev) => describeEvent(ev, 7)); } finally { [app.you, app.seatSeen] = saved; }""",
        EVENT_SAMPLES)
    for event, line in [*zip(EVENT_SAMPLES, described, strict=True), *zip(EVENT_SAMPLES, onlooker, strict=True)]:
        if line is None:                        # another seat's cards: not logged
            assert event["kind"] in ("deal_hole", "deal_draw") and "hidden" in event, event
            continue
        text, rule = line["text"], line["rule"]
        assert text and not RULE_ID.search(text), (event, text)
        assert not re.search(r"undefined|null|NaN|\[object|\bseat \d+s\b", text), (event, text)
        if event["kind"] in NO_RULE:
            assert rule == "", (event, line)
        else:
            assert rule and set(rule.split()) <= rule_ids, (event, line)
    said = [line and line["text"] for line in described]
    assert said[4] == "bob posts an entry bet of 4 to join the game (it counts as their bet)"
    assert said[5] == "cy posts 4 for the blinds missed while away (it counts as their bet)"
    assert said[6].startswith("Seat 4 posts 4 to be dealt in")
    assert said[7] == "cy posts 1 for a missed blind: it goes to the pot and does not count as their bet"
    assert said[8] == "Dealt to you: [Ah] [Kh] [Qh] [Jh] [7c]" and said[9] is None
    assert [described[i]["rule"] for i in (4, 5, 6, 7)] == ["R10.2", "R10.3", "R10.2 R10.3", "R10.3"]
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
