/*
 * pokerdraw32 — the table page's amounts (table.html loads it before table.js): the chips a
 * player may add (R10.1, R3.6; the re-buy of a busted seat, R10.4) and the bet or raise amount
 * (R3.4, R7.2): its legal range from the view's `legal` (min_to, max_to), the quick sizes, and
 * for a typed amount outside the range a hint naming the limit, the button disabled.
 *
 * Plain script, global functions, like table.js, whose `app`, `$`, `send`, `showMessage` and
 * table-log.js's `ruleTag` it uses when called (never while loading).
 */
"use strict";

/* ------------------------------------------------------------------ chips */

/**
 * The chips a seat with `stack` chips may add now: {min, max} (max null: no maximum). A busted
 * player buys in again, at least the table's minimum buy-in; never above its maximum (R10.1).
 */
function chipsRange(stack) {
  const info = app.info || {};
  const max = info.max_buy_in === null || info.max_buy_in === undefined ? null : Math.max(0, info.max_buy_in - stack);
  return { min: stack === 0 ? info.min_buy_in || 1 : 1, max };
}

/** Send add_chips with the amount of `field`, or say what is wrong with it (R10.1). */
function addChips(field) {
  const me = app.state && app.state.view.seats.find((x) => x.seat === app.you);
  if (!me || app.chipsId !== null) return;
  const text = field.value.trim();
  const chips = /^\d+$/.test(text) ? Number(text) : NaN;
  const { min, max } = chipsRange(me.stack);
  const hand = app.state.view.hand;
  if (me.in_hand && hand && hand.phase !== "complete") {
    showMessage("Chips can be added between hands only.", true, ruleTag("R3.6"));
    return;
  }
  if (Number.isNaN(chips) || chips < min || (max !== null && chips > max)) {
    const range = max === null ? `at least ${min}` : max < min ? "none now (your stack is at the table's maximum)"
      : `from ${min} to ${max}`;
    showMessage(`You can add ${range} chips.`, true, ruleTag("R10.1"));
    return;
  }
  showMessage("");
  app.chipsId = send({ type: "add_chips", chips });
}

/* ------------------------------------------------------------------ bet sizing */

/** The legal actions if it is our turn, else null. */
function myLegal() {
  const hand = app.state && app.state.view.hand;
  const legal = hand && hand.legal;
  return legal && app.you !== null && legal.seat === app.you ? legal : null;
}

/** Raise-to amount of a quick size ("min", "half", "pot", "allin"), within the legal range. */
function quickSize(size) {
  const legal = myLegal();
  if (!legal) return 0;
  const hand = app.state.view.hand;
  const roundBet = Math.max(0, ...hand.players.map((p) => p.bet));
  const potAfterCall = hand.pot + (legal.call_amount || 0);
  const target = {
    min: legal.min_to,
    half: roundBet + Math.floor(potAfterCall / 2),
    pot: roundBet + potAfterCall,
    allin: legal.max_to,
  }[size];
  return Math.min(legal.max_to, Math.max(legal.min_to, target));
}

/** The amount in the sizing field: a whole number of chips, or NaN (empty, a fraction, text). */
function currentAmount() {
  const text = $("#bet-amount").value.trim();
  return /^\d+$/.test(text) ? Number(text) : NaN;
}

/**
 * What is wrong with a typed bet/raise amount, or null: {text, rule}. The limits are the legal
 * actions' min_to and max_to (R3.4; the smallest bet R7.2; fixed-limit: one amount).
 */
function sizingProblem(amount, legal, raising) {
  const what = raising ? "raise" : "bet";
  const to = raising ? "to " : "";
  if (Number.isNaN(amount)) {
    return { text: `Type a whole number of chips from ${legal.min_to} to ${legal.max_to}.`, rule: "R3.2" };
  }
  if (amount < legal.min_to) {
    return { text: `Too small: the minimum ${what} is ${to}${legal.min_to}.`, rule: raising ? "R3.4" : "R7.2" };
  }
  if (amount > legal.max_to) {
    const why = legal.max_to === allInAmount() ? " (all your chips)" : " (the table's limit)";
    return { text: `Too large: the maximum ${what} is ${to}${legal.max_to}${why}.`, rule: "R3.4" };
  }
  return null;
}

/**
 * Set the bet/raise amount and relabel the button. A quick size or the slider (typing false)
 * is clamped to min_to..max_to; a typed amount is kept as typed and, outside that range, shown
 * with a hint naming the limit while the button stays disabled.
 */
function setAmount(value, typing) {
  const legal = myLegal();
  if (!legal) return;
  const field = $("#bet-amount");
  const raising = legal.kinds.includes("raise");
  let amount = typeof value === "number" ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!typing) {
    if (Number.isNaN(amount)) amount = legal.min_to;
    amount = Math.min(legal.max_to, Math.max(legal.min_to, amount));
    field.value = amount;
  }
  const problem = sizingProblem(amount, legal, raising);
  if (!problem) $("#bet-range").value = amount;
  field.classList.toggle("invalid", Boolean(problem));
  field.setAttribute("aria-invalid", String(Boolean(problem)));
  const hint = $("#sizing-hint");
  hint.hidden = !problem;
  hint.replaceChildren(...(problem ? [problem.text, " ", ruleTag(problem.rule)] : []));
  hint.dataset.rule = problem ? problem.rule : "";
  const button = $('#action-buttons button[data-action="bet"], #action-buttons button[data-action="raise"]');
  if (button) {
    button.disabled = Boolean(problem) || app.pending !== null;
    const shown = Number.isNaN(amount) ? "…" : amount;
    button.textContent = `${raising ? "Raise to" : "Bet"} ${shown}` + (amount === allInAmount() ? " (all-in)" : "");
  }
}

/** The round bet that puts all our chips in (pot-limit and fixed-limit may allow less). */
function allInAmount() {
  const me = app.state.view.hand.players.find((p) => p.seat === app.you);
  return me ? me.stack + me.bet : null;
}
