/*
 * pokerdraw32 — the browser client of the reference server (PROTOCOL.md, protocol version 1).
 *
 * One plain script for both pages; no framework, no build step, nothing from the network but
 * the server's WebSocket at /ws.
 *
 *   index.html  (body[data-page="lobby"])  lists the tables (`tables`), joins a seat (`join`)
 *                                           or links to a table to watch it.
 *   table.html  (body[data-page="table"])  the table at /table/<id>: draws every `state` the
 *                                           server sends, logs its `event`s (in words by
 *                                           table-log.js; table-amounts.js checks the chips
 *                                           and bet amounts typed), sends the player's
 *                                           `act`, `showdown`, `sit_out`/`sit_in`, `add_chips`
 *                                           and `leave` requests.
 *
 * The seat's token is kept in localStorage under "pd32.seat.<table>" as
 * {table, seat, token, last_seq, hand_seq}: on load (and after every reconnection, with backoff)
 * the page sends `resume` with it, so a reload puts the player back in the hand. The table log's
 * lines are kept in sessionStorage (and an onlooker's last_seq and hand_seq, under
 * "pd32.pos.<table>"). On load the page resumes (or watches) from just before the current
 * hand's first entry (hand_seq, the seq of its `hand_start`): the server replays the whole hand,
 * so the log shows all of it ("Dealt to you" included) even in a new tab whose sessionStorage
 * is empty; the stored lines of that hand are dropped first, so none is shown twice.
 *
 * Everything on the table is drawn from the last `state` (render()); events only feed the log.
 * Elements carry stable ids and data attributes for tests: body[data-my-turn|phase|seq|hand|you],
 * .seat[data-seat][data-name], .seat-stack[data-stack], #pot[data-amount], .my-card[data-card],
 * button[data-action], #discard-button, #log li[data-kind][data-seq][data-hand].
 */
"use strict";

/* ------------------------------------------------------------------ helpers */

const SUIT_SYMBOLS = { h: "♥", d: "♦", c: "♣", s: "♠" };
const SUIT_NAMES = { h: "hearts", d: "diamonds", c: "clubs", s: "spades" };
const RANK_TEXT = { T: "10" };

/** Make an element: el("div", {class: "x", dataset: {seat: 1}, onclick: f}, child, "text", ...). */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") {
      node.className = value;
    } else if (key === "dataset") {
      for (const [name, v] of Object.entries(value)) {
        if (v !== null && v !== undefined) node.dataset[name] = v;
      }
    } else if (key.startsWith("on")) {
      node.addEventListener(key.slice(2), value);
    } else {
      node.setAttribute(key, value === true ? "" : value);
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const $ = (selector) => document.querySelector(selector);

/** A face-up card, e.g. "Ah": rank and suit symbol, red for hearts and diamonds. */
function cardFace(code, extraClass) {
  const rank = code[0], suit = code[1];
  return el("div", {
    class: `card suit-${suit} ${extraClass || ""}`.trim(),
    dataset: { card: code },
    title: `${RANK_TEXT[rank] || rank} of ${SUIT_NAMES[suit]}`,
  }, el("span", { class: "rank" }, RANK_TEXT[rank] || rank), el("span", { class: "suit" }, SUIT_SYMBOLS[suit]));
}

function cardBack() {
  return el("div", { class: "card back" });
}

/** "Ah" -> a short inline span for text (the log, results). */
function cardText(code) {
  const rank = code[0], suit = code[1];
  return el("span", { class: `card-text suit-${suit}` }, (RANK_TEXT[rank] || rank) + SUIT_SYMBOLS[suit]);
}

function formatSeconds(s) {
  s = Math.max(0, Math.ceil(s));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function wsUrl() {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

/* ------------------------------------------------------------------ storage */

const seatKey = (tableId) => `pd32.seat.${tableId}`;

/**
 * The stored seat {table, seat, token, last_seq, hand_seq, joined_seq, dealt_seq} of a table, or
 * null (joined_seq: the table's seq when we sat down; dealt_seq: the first hand we were dealt in to).
 */
function loadSeat(tableId) {
  try {
    const data = JSON.parse(localStorage.getItem(seatKey(tableId)));
    return data && data.token ? data : null;
  } catch (e) {
    return null;
  }
}

function saveSeat(record) {
  localStorage.setItem(seatKey(record.table), JSON.stringify(record));
}

function forgetSeat(tableId) {
  localStorage.removeItem(seatKey(tableId));
}

/** This tab's place in a table's log {last_seq, hand_seq} (for onlookers, who have no seat record). */
function loadPosition(tableId) {
  try {
    return JSON.parse(sessionStorage.getItem(`pd32.pos.${tableId}`));
  } catch (e) {
    return null;
  }
}

function savePosition(tableId, lastSeq, handSeq) {
  sessionStorage.setItem(`pd32.pos.${tableId}`, JSON.stringify({ last_seq: lastSeq, hand_seq: handSeq }));
}

/* ------------------------------------------------------------------ connection */

/**
 * One WebSocket to the server that reconnects by itself, with exponential backoff (0.5 s
 * doubling up to 15 s, with jitter), until stop() is called. onOpen runs after every
 * (re)connection, onMessage for every message, onStatus with "connecting" | "open" | "closed".
 */
class Connection {
  constructor({ onOpen, onMessage, onStatus }) {
    Object.assign(this, { onOpen, onMessage, onStatus });
    this.socket = null;
    this.attempt = 0;
    this.nextId = 1;
    this.stopped = false;
    this.timer = null;
  }

  connect() {
    this.onStatus("connecting");
    const socket = new WebSocket(wsUrl());
    this.socket = socket;
    socket.onopen = () => { this.onStatus("open"); this.onOpen(); };
    socket.onmessage = (e) => {
      // a frame holds one message, or several as a JSON array, in order (PROTOCOL.md, Frames)
      let data;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      for (const msg of Array.isArray(data) ? data : [data]) this.onMessage(msg);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      this.onStatus("closed");
      this.scheduleReconnect();
    };
  }

  scheduleReconnect() {
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** The server accepted us (resumed, watching, tables): the next failure starts from 0.5 s. */
  healthy() {
    this.attempt = 0;
  }

  /** Send a request; returns its id (the reply carries the same id), or null when offline. */
  send(msg) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close();
  }
}

function showConnection(state) {
  const node = $("#connection");
  node.dataset.state = state;
  node.textContent = {
    connecting: "connecting…", open: "online", closed: "offline — reconnecting", stopped: "disconnected",
  }[state];
}

/** "no-limit 1/2, Parole": the structure and blinds (the over blind only plays with 4+ seats, R4.2). */
function describeRules(rules, seats) {
  const r = rules || {};
  const sb = r.sb || 1, bb = r.bb || 2 * sb;
  const over = r.over_blind !== false && seats >= 4 ? `/${r.ob || 2 * bb}` : "";
  return `${r.structure || "no-limit"} ${sb}/${bb}${over}${r.parole === false ? "" : ", Parole"}`;
}

/* ================================================================== the lobby */

const lobby = { conn: null, tables: [], shown: "", joinId: null, wanted: {} };

function initLobby() {
  const params = new URLSearchParams(location.search);
  lobby.wanted = { table: params.get("table"), seat: params.get("seat") };
  $("#join-name").value = localStorage.getItem("pd32.name") || "";
  $("#join-form").addEventListener("submit", (e) => { e.preventDefault(); sendJoin(); });
  $("#join-table").addEventListener("change", () => fillJoinForm(true));
  $("#refresh-button").addEventListener("click", () => lobby.conn.send({ type: "tables" }));
  lobby.conn = new Connection({
    onOpen: () => {
      $("#join-button").disabled = false;
      lobby.conn.send({ type: "tables" });
    },
    onMessage: onLobbyMessage,
    onStatus: showConnection,
  });
  lobby.conn.connect();
  setInterval(() => lobby.conn.send({ type: "tables" }), 5000);
}

function onLobbyMessage(msg) {
  if (msg.type === "welcome" || msg.type === "tables") {
    lobby.conn.healthy();
    // redraw only when what the lobby shows changed (not, say, each table's hand_number)
    const shown = JSON.stringify((msg.tables || []).map((t) => [t.id, t.title, t.seats, t.players, t.min_buy_in,
      t.max_buy_in, t.default_buy_in, t.decision_time]));
    if (shown === lobby.shown) return;
    lobby.shown = shown;
    lobby.tables = msg.tables || [];
    renderTableList();
    fillJoinForm(false);
  } else if (msg.type === "joined" && msg.id === lobby.joinId) {
    saveSeat({ table: msg.table, seat: msg.seat, token: msg.token, last_seq: msg.seq, joined_seq: msg.seq });
    lobby.conn.stop();
    location.href = `/table/${encodeURIComponent(msg.table)}`;
  } else if (msg.type === "error" && msg.id === lobby.joinId) {
    $("#join-error").textContent = msg.message || msg.code;
    $("#join-button").disabled = false;
  }
}

function renderTableList() {
  const list = $("#tables");
  list.replaceChildren();
  if (!lobby.tables.length) list.append(el("p", { class: "muted" }, "No tables."));
  for (const t of lobby.tables) {
    const players = (t.players || []).map((p) =>
      el("li", {}, `${p.seat}: ${p.name}`, p.bot ? el("span", { class: "bot-tag" }, p.bot) : null));
    const free = t.seats - (t.players || []).length;
    const mine = loadSeat(t.id);
    list.append(el("article", {
      class: "table-entry",
      dataset: { table: t.id, defaultBuyIn: t.default_buy_in, seats: t.seats },
    },
    el("h3", {}, t.title || t.id),
    el("p", { class: "muted" }, `${describeRules(t.rules, t.seats)} · ${t.seats} seats, ${free} free · buy-in `
      + `${t.min_buy_in}–${t.max_buy_in === null ? "no limit" : t.max_buy_in} · ${t.decision_time} s to act`),
    el("ul", { class: "players" }, players),
    el("div", { class: "entry-buttons" },
      mine ? el("a", { class: "button primary", href: `/table/${encodeURIComponent(t.id)}` }, "Back to my seat") : null,
      free > 0 ? el("button", { type: "button", dataset: { choose: t.id }, onclick: () => chooseTable(t.id) }, "Join…")
        : null,
      el("a", { class: "button watch-link", href: `/table/${encodeURIComponent(t.id)}` }, "Watch"))));
  }
}

function chooseTable(tableId) {
  $("#join-table").value = tableId;
  fillJoinForm(true);
  $("#join-name").focus();
}

/** Keep the join form in step with the table list (choices, free seats, buy-in limits). */
function fillJoinForm(tableChanged) {
  const select = $("#join-table");
  const current = select.value || lobby.wanted.table;
  select.replaceChildren(...lobby.tables.map((t) => el("option", { value: t.id }, t.title || t.id)));
  if (current && lobby.tables.some((t) => t.id === current)) select.value = current;
  const t = lobby.tables.find((x) => x.id === select.value);
  if (!t) return;
  const taken = new Set((t.players || []).map((p) => p.seat));
  const seatSelect = $("#join-seat");
  const seat = seatSelect.value || lobby.wanted.seat || "";
  seatSelect.replaceChildren(el("option", { value: "" }, "first free seat"));
  for (let n = 0; n < t.seats; n++) {
    if (!taken.has(n)) seatSelect.append(el("option", { value: String(n) }, `seat ${n}`));
  }
  if ([...seatSelect.options].some((o) => o.value === seat)) seatSelect.value = seat;
  const chips = $("#join-chips");
  chips.min = t.min_buy_in;
  if (t.max_buy_in !== null && t.max_buy_in !== undefined) chips.max = t.max_buy_in; else chips.removeAttribute("max");
  if (tableChanged || !chips.value) chips.value = t.default_buy_in;
}

function sendJoin() {
  const name = $("#join-name").value.trim();
  const chips = parseInt($("#join-chips").value, 10);
  const seat = $("#join-seat").value;
  // one key for this page's join, sent again if the join is: a join whose answer was lost (a
  // cluster's failover) then finds its seat instead of taking a second one (PROTOCOL.md)
  if (!app.joinKey) {
    app.joinKey = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0"))
      .join("");
  }
  const msg = { type: "join", table: $("#join-table").value, name, chips, wait: $("#join-wait").checked,
    key: app.joinKey };
  if (seat !== "") msg.seat = parseInt(seat, 10);
  localStorage.setItem("pd32.name", name);
  $("#join-error").textContent = "";
  lobby.joinId = lobby.conn.send(msg);
  if (lobby.joinId === null) $("#join-error").textContent = "Not connected to the server; retrying…";
  else $("#join-button").disabled = true;
}

/* ================================================================== the table */

const app = {
  tableId: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || ""),
  conn: null,
  info: null,        // this table in the `tables` list (title, seats, rules, buy-ins)
  you: null,         // our seat number, null when watching
  token: null,
  lastSeq: 0,        // the last log entry seen
  handSeq: 0,        // the `hand_start` entry of the current (or last) hand, 0 if not seen
  seatSeen: {},      // seat -> {sat, dealt}: seqs of its player's `seated` and first `hand_start` seen
  state: null,       // the last `state` message
  stateAt: 0,        // performance.now() when it arrived (for the clock)
  names: {},         // seat -> name, from the states and `seated` events
  showText: {},      // seat -> hand description from this hand's `show` events
  selected: new Set(), // cards picked for the draw
  pending: null,     // id of our act in flight: the buttons wait for its answer...
  pendingSeq: 0,     // ...or for a state after the one it was decided on
  decision: "",      // key of the decision the sizing input belongs to
  leaveArmed: false,
  chipsId: null,     // id of our add_chips in flight: its `ok` clears the chips fields
  rebuyShown: false, // the re-buy panel is up (its amount is filled when it appears)
  leaving: false,    // we asked to leave during a hand: paid out at its end
  greeting: false,   // resume/watch sent, reply not yet received
  skipAhead: false,  // the server closed on us while greeting: resume from its present seq
  replaced: false,
};

/** Replays longer than this many entries are not asked for just to show the current hand whole. */
const REWIND_LIMIT = 2000;

function initTable() {
  const stored = loadSeat(app.tableId);
  const position = stored || loadPosition(app.tableId);
  if (stored) {
    app.you = stored.seat;
    app.token = stored.token;
    if (stored.joined_seq) app.seatSeen[stored.seat] = { sat: stored.joined_seq, dealt: stored.dealt_seq };
  }
  if (position) {
    app.lastSeq = position.last_seq || 0;
    app.handSeq = position.hand_seq || 0;
  }
  // show the current hand whole after a reload: ask again for everything from its first entry on
  if (app.handSeq > 0 && app.handSeq <= app.lastSeq && app.lastSeq - app.handSeq < REWIND_LIMIT) {
    app.lastSeq = app.handSeq - 1;
    dropLogAfter(app.lastSeq);
  }
  restoreLog();
  bindControls();
  app.conn = new Connection({ onOpen: greet, onMessage: onTableMessage, onStatus: onConnection });
  app.conn.connect();
  setInterval(renderClock, 200);
}

/**
 * After every (re)connection: take our seat back (`resume`), or watch, from our last seq.
 * If the server closed the last connection before answering that (a backlog too long to
 * replay), skip ahead: `watch` without last_seq gives the table's seq, and we resume from it.
 */
function greet() {
  app.greeting = true;
  app.chipsId = null;                      // an add_chips lost with the connection: the stack will tell
  if (app.skipAhead) {
    app.conn.send({ type: "watch", table: app.tableId });
  } else if (app.token) {
    app.conn.send({ type: "resume", table: app.tableId, token: app.token, last_seq: app.lastSeq });
  } else {
    app.conn.send({ type: "watch", table: app.tableId, ...(app.lastSeq ? { last_seq: app.lastSeq } : {}) });
  }
}

function onConnection(status) {
  showConnection(status);
  if (status === "closed" && app.greeting) app.skipAhead = true;   // closed before it answered
}

/** The `watching` reply of a skip-ahead: resume our seat from the table's present seq. */
function skippedAhead(msg) {
  app.skipAhead = false;
  if (msg.seq > app.lastSeq) {
    addLogLine({ text: "… (older entries of the log skipped)", kind: "gap", seq: msg.seq });
    rememberSeq(msg.seq);
  } else if (msg.seq < app.lastSeq) {      // a shorter log than ours: the server started afresh
    addLogLine({ text: "… (the table's log started again)", kind: "gap", seq: msg.seq });
    app.lastSeq = msg.seq;
    app.handSeq = 0;
    rememberSeq(msg.seq);
  }
  if (app.token) {
    app.greeting = true;
    app.conn.send({ type: "resume", table: app.tableId, token: app.token, last_seq: app.lastSeq });
  }
}

function onTableMessage(msg) {
  switch (msg.type) {
    case "welcome":
    case "tables":
      app.info = (msg.tables || []).find((t) => t.id === app.tableId) || app.info;
      if (!app.info) showMessage(`There is no table “${app.tableId}”.`, true);
      for (const p of app.info ? app.info.players || [] : []) app.names[p.seat] = p.name;
      render();
      break;
    case "resumed":
    case "watching":
      app.conn.healthy();
      app.greeting = false;
      if (msg.type === "watching" && app.skipAhead) {
        skippedAhead(msg);
        break;
      }
      app.you = msg.type === "resumed" ? msg.seat : null;
      if ($("#message").dataset.offline) showMessage("");
      break;
    case "joined":           // a seat taken from this page (after the token went bad, say)
      Object.assign(app, { you: msg.seat, token: msg.token });
      app.seatSeen[msg.seat] = { sat: msg.seq };
      rememberSeq(msg.seq);
      break;
    case "event":
      if (!app.greeting) onEvent(msg);     // (skipping ahead: not the onlooker's copy)
      break;
    case "state":
      if (!app.greeting) onState(msg);
      break;
    case "ok":
      if (msg.id === app.pending) {
        app.pending = null;
        render();
      }
      if (msg.id === app.chipsId) {          // the chips were added: empty the fields for next time
        app.chipsId = null;
        $("#add-chips-amount").value = "";
        $("#rebuy-amount").value = "";
        render();
      }
      if (msg.id === app.leaveId && app.token) {   // dealt in: paid out (a `left` message) at the hand's end
        app.leaving = true;
        showMessage("You leave the table at the end of this hand.");
        render();
      }
      break;
    case "left":
      onLeft(msg);
      break;
    case "error":
      onError(msg);
      break;
    default:
      break;
  }
}

function onEvent(msg) {
  if (msg.seq <= app.lastSeq) return;   // already seen (a resume replays from our last seq)
  const ev = msg.event;
  if (ev.kind === "hand_start") {
    app.showText = {};
    app.handSeq = msg.seq;
  }
  if (ev.kind === "seated") app.names[ev.seat] = ev.name;
  if (ev.kind === "show" && ev.hand) app.showText[ev.seat] = ev.hand;
  noteSeats(ev.kind, msg.seq, ev.seat, ev.seats);
  const line = describeEvent(ev, msg.hand);
  if (line) {
    addLogLine({ text: line.text, rule: line.rule, kind: ev.kind, seq: msg.seq, hand: msg.hand, seat: ev.seat,
      chips: ev.chips, seats: ev.seats });
  }
  rememberSeq(msg.seq);
  if (ev.kind === "left" && ev.seat === app.you) onLeft(ev);
}

function onState(msg) {
  app.state = msg;
  app.stateAt = performance.now();
  if (msg.you !== undefined) app.you = msg.you;
  for (const s of msg.view.seats) app.names[s.seat] = s.name;
  if (app.pending !== null && msg.seq > app.pendingSeq) app.pending = null;   // the table moved on
  rememberSeq(msg.seq);
  render();
}

function rememberSeq(seq) {
  if (seq > app.lastSeq) app.lastSeq = seq;
  savePosition(app.tableId, app.lastSeq, app.handSeq);
  if (app.token) {
    const mine = app.seatSeen[app.you] || {};
    saveSeat({ table: app.tableId, seat: app.you, token: app.token, last_seq: app.lastSeq, hand_seq: app.handSeq,
      joined_seq: mine.sat, dealt_seq: mine.dealt });
  }
}

/**
 * The `left` message, or the `left` event of our seat: we were paid out. The server already
 * watches the table for us (a `state` as an onlooker follows); we forget the seat.
 */
function onLeft(msg) {
  if (!app.token) return;
  forgetSeat(app.tableId);
  Object.assign(app, { token: null, you: null, leaving: false });
  showMessage(`You left the table with ${msg.chips} chips.`);
}

function onError(msg) {
  app.pending = null;
  if (msg.id === app.chipsId) app.chipsId = null;
  if (msg.code === "bad_token") {          // the seat is gone (left, or another server): watch
    forgetSeat(app.tableId);
    Object.assign(app, { token: null, you: null });
    showMessage("Your seat at this table is no longer yours; you are watching.", true);
    greet();
  } else if (msg.code === "replaced") {    // the seat was resumed in another window
    app.replaced = true;
    app.conn.stop();
    showConnection("stopped");
    const again = el("button", { type: "button", onclick: () => location.reload() }, "Play here again");
    showMessage("This seat is now played from another window or tab. ", true, again);
  } else if (msg.code === "no_such_table") {
    app.conn.stop();
    showConnection("stopped");
    showMessage(`There is no table “${app.tableId}”. `, true, el("a", { href: "/" }, "See the tables"));
  } else if (msg.code === "moved") {        // the table changed server process (PROTOCOL.md, Cluster)
    showMessage("The table moved to another server process; taking your place back…", false, "", true);
    greet();
  } else if (msg.code === "unavailable") {  // a failover is under way: ask again shortly
    showMessage("The table is being taken over by another server process; trying again…", false, "", true);
    setTimeout(greet, 1000);
  } else if (app.greeting && !app.skipAhead) {   // our resume/watch was refused (say, a last_seq
    app.skipAhead = true;                        // from another run of the server): skip ahead
    greet();
  } else if (msg.code === "stale" || msg.code === "not_your_turn") {
    showMessage("The table moved on before your action arrived; look again.", true);
  } else {
    showMessage(msg.message || msg.code, true);
  }
  render();
}

/** The line under the table: errors, notices; `offline` ones are cleared once we are back. */
function showMessage(text, isError, extra, offline) {
  const node = $("#message");
  node.replaceChildren(text, extra || "");
  node.classList.toggle("error", Boolean(isError));
  if (offline) node.dataset.offline = "true";
  else delete node.dataset.offline;
}

/* ------------------------------------------------------------------ sending */

function send(msg) {
  const id = app.conn.send(msg);
  if (id === null) showMessage("Offline: that was not sent. Reconnecting…", true, null, true);
  return id;
}

/** Our action in the running hand, tied to the state we decided on (`seq`). */
function act(kind, extra) {
  if (app.pending !== null || !app.state) return;
  showMessage("");
  app.pendingSeq = app.state.seq;
  app.pending = send({ type: "act", kind, seq: app.state.seq, ...(extra || {}) });
  render();
}

function bindControls() {
  $("#discard-button").addEventListener("click", () => act("discard", { cards: [...app.selected] }));
  $("#stand-pat-button").addEventListener("click", () => act("discard", { cards: [] }));
  for (const b of document.querySelectorAll("#sizing [data-size]")) {
    b.addEventListener("click", () => setAmount(quickSize(b.dataset.size)));
  }
  $("#bet-range").addEventListener("input", (e) => setAmount(e.target.value));
  $("#bet-amount").addEventListener("input", (e) => setAmount(e.target.value, true));
  $("#bet-amount").addEventListener("keydown", (e) => {     // Enter bets or raises, if the amount is legal
    const button = $('#action-buttons button[data-action="bet"], #action-buttons button[data-action="raise"]');
    if (e.key === "Enter" && button && !button.disabled) button.click();
  });
  $("#showdown-choice").addEventListener("change", (e) =>
    send({ type: "showdown", show: { auto: null, show: true, muck: false }[e.target.value] }));
  $("#sit-out-button").addEventListener("click", () => send({ type: "sit_out" }));
  $("#sit-in-button").addEventListener("click", () => send({ type: "sit_in" }));
  $("#add-chips-button").addEventListener("click", () => addChips($("#add-chips-amount")));
  $("#add-chips-amount").addEventListener("keydown", (e) => { if (e.key === "Enter") addChips(e.target); });
  $("#rebuy-button").addEventListener("click", () => addChips($("#rebuy-amount")));
  $("#rebuy-amount").addEventListener("keydown", (e) => { if (e.key === "Enter") addChips(e.target); });
  $("#leave-button").addEventListener("click", () => {
    if (!app.leaveArmed) {                 // two clicks: no dialog box to block the page
      app.leaveArmed = true;
      $("#leave-button").textContent = "Really leave?";
      setTimeout(() => { app.leaveArmed = false; $("#leave-button").textContent = "Leave"; }, 4000);
      return;
    }
    app.leaveId = send({ type: "leave" });
  });
}

/* ------------------------------------------------------------------ rendering */

function render() {
  if (app.info) {
    $("#table-title").textContent = app.info.title || app.info.id;
    document.title = `pokerdraw32 — ${app.info.title || app.info.id}`;
  }
  const state = app.state;
  const view = state ? state.view : null;
  const hand = view ? view.hand : null;
  const legal = myLegal();
  document.body.dataset.seq = state ? state.seq : 0;
  document.body.dataset.hand = view ? view.hand_number : 0;
  document.body.dataset.phase = hand ? hand.phase : "";
  document.body.dataset.myTurn = String(Boolean(legal) && app.pending === null);
  document.body.dataset.you = app.you === null ? "" : app.you;
  $("#hand-number").textContent = view && view.hand_number ? `Hand #${view.hand_number}` : "";
  $("#status").textContent = statusText(view, legal);
  renderSeats(view);
  renderCenter(hand);
  renderControls(view, legal);
  renderClock();
}

function statusText(view, legal) {
  if (!view) return "Connecting…";
  const hand = view.hand;
  if (legal) return hand.phase === "draw" ? "Your turn: draw" : "Your turn";
  const me = view.seats.find((x) => x.seat === app.you);
  if (me && me.stack === 0 && !me.in_hand) return "No chips left: buy in again to play";
  if (!hand || hand.phase === "complete") return view.seats.length < 2 ? "Waiting for players" : "Next hand soon";
  if (view.to_act !== null && view.to_act !== undefined) {
    return `${app.names[view.to_act] || `Seat ${view.to_act}`} to act`;
  }
  return "Dealing";
}

/** Seat boxes around the felt, our seat (or seat 0) at the bottom. */
function renderSeats(view) {
  const container = $("#seats");
  container.replaceChildren();
  const count = (app.info && app.info.seats) || (view ? Math.max(2, ...view.seats.map((s) => s.seat + 1)) : 0);
  if (!count) return;
  const hand = view ? view.hand : null;
  const running = hand && hand.phase !== "complete";
  const seats = new Map((view ? view.seats : []).map((s) => [s.seat, s]));
  const players = new Map((hand ? hand.players : []).map((p) => [p.seat, p]));
  const shown = new Map((hand ? hand.shown : []).map((s) => [s.seat, s.cards]));
  const winners = new Set((hand && hand.phase === "complete" ? hand.pots : []).flatMap((p) => p.winners || []));
  const bottom = app.you === null ? 0 : app.you;

  for (let n = 0; n < count; n++) {
    const angle = Math.PI / 2 + (2 * Math.PI * ((n - bottom + count) % count)) / count;
    const pos = (rx, ry) => ({ left: `${50 + rx * Math.cos(angle)}%`, top: `${50 + ry * Math.sin(angle)}%` });
    const seat = seats.get(n);
    const player = players.get(n);
    const place = pos(46, 44);
    const box = seat ? seatBox(seat, player, hand, running, shown.get(n), winners.has(n))
      : emptySeatBox(n);
    box.style.left = place.left;
    box.style.top = place.top;
    container.append(box);

    if (player && player.bet > 0 && running) {
      const betPlace = pos(27, 23);
      container.append(el("div", {
        class: "seat-bet", dataset: { seat: n, bet: player.bet }, style: `left:${betPlace.left};top:${betPlace.top}`,
      }, el("span", { class: "chip" }), String(player.bet)));
    }
    if (hand && hand.button === n) {
      const buttonPlace = { left: 50 + 27 * Math.cos(angle + 0.5), top: 50 + 25 * Math.sin(angle + 0.5) };
      container.append(el("div", {
        class: "dealer-button", id: "dealer-button", dataset: { seat: n }, title: "dealer button",
        style: `left:${buttonPlace.left}%;top:${buttonPlace.top}%`,
      }, "D"));
    }
  }
}

function seatBox(seat, player, hand, running, shownCards, isWinner) {
  const mine = seat.seat === app.you;
  const toAct = running && hand.to_act === seat.seat;
  const classes = ["seat"];
  if (mine) classes.push("me");
  if (toAct) classes.push("to-act");
  if (player && player.folded) classes.push("folded");
  if (player && player.all_in && running) classes.push("all-in");
  if (seat.sitting_out) classes.push("sitting-out");
  if (isWinner) classes.push("winner");

  const badges = [];
  if (player && player.folded && running) badges.push("folded");
  if (player && player.all_in && running) badges.push("all-in");
  if (seat.sitting_out) badges.push("sitting out");
  if (seat.waiting) badges.push("waiting");
  if (isWinner) badges.push("winner");
  if (player && player.discarded !== null && running) {
    badges.push(player.discarded ? `drew ${player.discarded}` : "stood pat");
  }

  let cards = null;
  if (shownCards) {
    cards = el("div", { class: "seat-cards shown" }, shownCards.map((c) => cardFace(c, "small")));
  } else if (player && running && !player.folded && !mine) {
    cards = el("div", { class: "seat-cards" }, [0, 1, 2, 3, 4].map(cardBack));
  }
  const described = shownCards && app.showText[seat.seat];
  return el("div", { class: classes.join(" "), dataset: { seat: seat.seat, name: seat.name } },
    cards,
    el("div", { class: "seat-name" }, seat.name, mine ? " (you)" : ""),
    el("div", { class: "seat-stack", dataset: { stack: seat.stack }, ...(mine ? { id: "my-stack" } : {}) },
      String(seat.stack)),
    described ? el("div", { class: "seat-hand" }, described) : null,
    badges.length ? el("div", { class: "badges" }, badges.map((b) => el("span", { class: "badge" }, b))) : null,
    toAct ? el("div", { class: "seat-clock", dataset: { seat: seat.seat } }) : null);
}

function emptySeatBox(n) {
  const join = app.you === null && app.info
    ? el("a", { class: "button small", href: `/?table=${encodeURIComponent(app.tableId)}&seat=${n}` }, "Sit here")
    : null;
  return el("div", { class: "seat empty", dataset: { seat: n } }, el("div", { class: "seat-name" }, "empty"), join);
}

const PHASES = {
  deal: "Dealing", "first-round": "First betting round", draw: "Draw",
  "second-round": "Second betting round", complete: "Hand over",
};

function renderCenter(hand) {
  $("#phase").textContent = hand ? PHASES[hand.phase] || hand.phase : "";
  const running = hand && hand.phase !== "complete";
  const pot = running ? hand.pot : 0;
  $("#pot").dataset.amount = pot;
  $("#pot").textContent = running ? `Pot ${pot}` : "";
  const pots = $("#pots");
  pots.replaceChildren();
  if (running && hand.pots.length > 1) {
    hand.pots.forEach((p, i) => pots.append(el("div", {}, `${i ? `side pot ${i}` : "main pot"}: ${p.amount}`)));
  }
  if (running && hand.parole_open) pots.append(el("div", { class: "parole" }, "Parole offered"));
  // the showdown: who won which pot, read from the state's pots
  const result = $("#result");
  result.replaceChildren();
  if (hand && hand.phase === "complete") {
    hand.pots.forEach((p, i) => {
      const names = (p.winners || []).map((s) => app.names[s] || `seat ${s}`);
      if (!names.length) return;
      const what = hand.pots.length > 1 ? (i ? ` (side pot ${i})` : " (main pot)") : "";
      const verb = p.shared || names.length > 1 ? "share" : "wins";
      const how = names.length === 1 && app.showText[p.winners[0]] ? ` with ${app.showText[p.winners[0]]}` : "";
      result.append(el("div", { class: "award" }, `${names.join(" and ")} ${verb} ${p.amount}${what}${how}`));
    });
  }
}

function renderControls(view, legal) {
  const seated = app.you !== null && !app.replaced && view && view.seats.some((s) => s.seat === app.you);
  $("#controls").hidden = !seated;
  $("#watch-bar").hidden = app.you !== null || !view;
  $("#take-seat-link").href = `/?table=${encodeURIComponent(app.tableId)}`;
  if (!seated) return;
  const hand = view.hand;
  const me = view.seats.find((s) => s.seat === app.you);
  const player = hand ? hand.players.find((p) => p.seat === app.you) : null;
  const running = hand && hand.phase !== "complete";
  const busy = app.pending !== null;

  // our cards: clickable in the draw
  const drawing = legal && legal.kinds.includes("discard");
  if (!drawing) app.selected.clear();
  const cards = hand && hand.cards && player && !(player.folded && running) ? hand.cards : [];
  $("#my-cards").replaceChildren(...cards.map((c) => {
    const card = cardFace(c, `my-card${app.selected.has(c) ? " selected" : ""}${drawing ? " selectable" : ""}`);
    if (drawing) card.addEventListener("click", () => toggleDiscard(c));
    return card;
  }));
  $("#draw-hint").textContent = drawing
    ? `Click the cards to replace (at most ${legal.max_discard}), then discard — or stand pat.` : "";

  // draw buttons
  $("#draw-controls").hidden = !drawing;
  if (drawing) {
    const n = app.selected.size;
    $("#discard-button").textContent = n ? `Discard ${n}` : "Discard";
    $("#discard-button").disabled = busy || n === 0 || n > legal.max_discard;
    $("#stand-pat-button").disabled = busy;
  }

  // betting buttons
  const buttons = $("#action-buttons");
  buttons.replaceChildren();
  const kinds = legal && !drawing ? legal.kinds : [];
  const labels = {
    fold: "Fold", check: "Check", call: `Call ${legal ? legal.call_amount : ""}`,
    split: player && player.all_in ? "Accept split" : "Parole (split)", decline: "Decline split",
  };
  for (const kind of ["fold", "check", "call", "split", "decline", "bet", "raise"]) {
    if (!kinds.includes(kind)) continue;
    const sized = kind === "bet" || kind === "raise";
    const button = el("button", {
      type: "button", class: `action ${kind}`, dataset: { action: kind }, disabled: busy,
      onclick: () => (sized ? act(kind, { amount: currentAmount() }) : act(kind)),
    }, labels[kind] || kind);
    buttons.append(button);
  }
  const sizing = kinds.includes("bet") || kinds.includes("raise");
  $("#sizing").hidden = !sizing;
  if (sizing) {
    const key = `${view.hand_number}/${hand.serial}/${legal.min_to}/${legal.max_to}`;
    const amount = $("#bet-amount");
    for (const input of [$("#bet-range"), amount]) {
      input.min = legal.min_to;
      input.max = legal.max_to;
    }
    const raising = kinds.includes("raise");
    const fixed = legal.min_to === legal.max_to;
    const allIn = legal.max_to === allInAmount();
    $("#sizing-label").textContent = raising ? "Raise to" : "Bet";
    // the legal range, always in sight (R3.4); one amount only: fixed-limit, or all-in for less
    $("#sizing-limits").textContent = !fixed ? `min ${legal.min_to}, max ${legal.max_to}${allIn ? " (all-in)" : ""}`
      : allIn ? `all-in: ${legal.min_to}` : `fixed: ${legal.min_to}`;
    $("#sizing-limits").title = ruleTip(raising ? "R3.4" : "R3.4 R7.2");
    amount.placeholder = fixed ? String(legal.min_to) : `${legal.min_to}–${legal.max_to}`;
    amount.hidden = fixed;
    $("#bet-range").hidden = fixed;
    document.querySelector("#sizing .quick").hidden = fixed;
    $('#sizing [data-size="allin"]').textContent = allIn ? "All-in" : "Max";
    // the same decision: keep what the player typed (checked again), else start at the minimum
    if (key === app.decision) setAmount(amount.value, true);
    else setAmount(legal.min_to);
    app.decision = key;
  } else {
    $("#sizing-hint").hidden = true;
  }

  // showdown choice ("show", "muck" or null in the view), seat controls
  const choice = hand && hand.showdown_choice;
  $("#showdown-choice").value = choice === "show" || choice === "muck" ? choice : "auto";
  $("#showdown-choice").disabled = !(running && player && !player.folded);
  $("#sit-out-button").hidden = me.sitting_out;
  $("#sit-in-button").hidden = !me.sitting_out;
  $("#leave-button").disabled = app.leaving;

  // chips: a busted player (no chips, not in a hand, R10.4) gets the re-buy panel instead
  const busted = me.stack === 0 && !(me.in_hand && running);
  const range = chipsRange(me.stack);
  $("#rebuy").hidden = !busted;
  document.querySelector(".add-chips").hidden = busted;
  const field = busted ? $("#rebuy-amount") : $("#add-chips-amount");
  field.min = range.min;
  if (range.max === null) field.removeAttribute("max"); else field.max = range.max;
  if (busted) {
    const info = app.info || {};
    const max = range.max === null ? "no maximum" : `at most ${range.max}`;
    $("#rebuy-limits").textContent = `at least ${range.min}, ${max}`;
    $("#rebuy-limits").title = ruleTip("R10.1");
    if (!app.rebuyShown) {                   // as it appears: the table's default buy-in, within its limits
      const wanted = info.default_buy_in || range.min;
      field.value = range.max === null ? wanted : Math.min(range.max, wanted);
    }
    $("#rebuy-button").disabled = app.chipsId !== null;
  } else {
    $("#add-chips-amount").placeholder = range.max === null ? "chips" : `up to ${range.max}`;
    $("#add-chips-button").disabled = Boolean(me.in_hand && running) || app.chipsId !== null
      || (range.max !== null && range.max < 1);
  }
  app.rebuyShown = busted;
}

function toggleDiscard(code) {
  const legal = myLegal();
  if (!legal) return;
  if (app.selected.has(code)) app.selected.delete(code);
  else if (app.selected.size < legal.max_discard) app.selected.add(code);
  render();
}

/** The countdown of the player to act: decision time, then time bank; the raise limit. */
function renderClock() {
  const state = app.state;
  const clock = state && state.clock;
  const seatClock = document.querySelector(".seat-clock");
  const mine = $("#clock");
  if (!clock) {
    if (mine) mine.textContent = "";
    return;
  }
  const elapsed = (performance.now() - app.stateAt) / 1000;
  const actLeft = clock.act_in - elapsed;
  const bankLeft = clock.bank + Math.min(0, actLeft);
  let text = actLeft > 0 ? formatSeconds(actLeft) : `time bank ${formatSeconds(bankLeft)}`;
  const raiseLeft = clock.raise_in === null || clock.raise_in === undefined ? null : clock.raise_in - elapsed;
  if (raiseLeft !== null && raiseLeft > 0) text += ` · raise within ${Math.ceil(raiseLeft)} s`;
  const urgent = actLeft <= 5;
  if (seatClock && Number(seatClock.dataset.seat) === clock.seat) {
    seatClock.textContent = text;
    seatClock.classList.toggle("urgent", urgent);
  }
  if (mine) {
    const ours = clock.seat === app.you && myLegal();
    mine.textContent = ours ? `Your time: ${text}` : "";
    mine.classList.toggle("urgent", Boolean(ours) && urgent);
  }
}

/* ------------------------------------------------------------------ start */

if (document.body.dataset.page === "lobby") initLobby();
else initTable();
