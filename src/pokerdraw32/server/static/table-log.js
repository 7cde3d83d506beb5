/*
 * pokerdraw32 — the table page's log (table.html loads it before table.js): each event of the
 * table's log (PROTOCOL.md, `event`) as one line in plain words, the rule it follows (RULES.md)
 * in the line's tooltip, never in its text; the lines kept in sessionStorage for a reload.
 *
 * Plain script, global functions, like table.js, whose `app`, `el`, `$` and `cardText` it uses
 * when called (never while loading). Each <li> of #log carries data-kind, data-seq, data-hand
 * (and data-seat, data-chips, data-rule where they apply) and title (the rule's summary).
 */
"use strict";

/**
 * The rules the page cites (RULES.md), each in one plain sentence: the tooltips of the log's
 * lines (title attribute; the text itself stays plain words) and of the hints.
 */
const RULE_SUMMARY = {
  "R3.2": "Chips are whole numbers.",
  "R3.4": "Bet sizes: no-limit, a bet of at least the largest blind and a raise at least as large as the "
    + "last bet or raise, up to all your chips; pot-limit, at most the pot after your call; fixed-limit, "
    + "exact amounts.",
  "R3.5": "An all-in for less than a full raise does not reopen the betting: players who already acted "
    + "may only call or fold.",
  "R3.6": "Chips can be added only between hands.",
  "R4.1": "The button (the dealer) moves one player clockwise after each hand.",
  "R4.2": "Blinds are forced bets posted before the deal, clockwise from the button: small, big, and "
    + "with 4-5 players the over blind.",
  "R4.5": "A player who has less than the blind posts all they have and is all-in.",
  "R5.1": "Each player is dealt 5 cards face down.",
  "R5.2": "On your turn: fold, check (only when nothing is owed), call, bet or raise.",
  "R5.3": "A betting round ends when everyone still in the hand has put in the same amount.",
  "R6.1": "In the draw each player replaces 0 to 4 cards; keeping all 5 is standing pat.",
  "R6.2": "When the deck runs short, the cards discarded in this draw are shuffled and dealt from.",
  "R6.3": "Out of time in the draw: the player stands pat and may not bet or raise in the second round.",
  "R7.2": "The smallest bet is the largest blind (twice that in fixed-limit).",
  "R7.3": "Out of time in a betting round: check if nothing is owed, else fold; after the raise time, "
    + "no more raising this turn.",
  "R8.1": "Parole: while nobody has bet in the second round, the players may vote to split the pot.",
  "R8.2": "An all-in player accepts or declines the split; declining affects only the pots they play for.",
  "R9.2": "A bet or raise that nobody called goes back to the player who made it.",
  "R9.3": "At the showdown the players show in turn; one who cannot win may muck (not show).",
  "R9.4": "Each pot goes to the best hand among its players; a shared pot is split evenly, odd chips "
    + "clockwise from the button.",
  "R10.1": "Buy-ins are between the table's minimum and maximum; chips may be added between hands, never "
    + "above the maximum.",
  "R10.2": "A player who joins a running table posts an entry bet equal to the largest blind (it counts "
    + "as their bet), or waits for the big blind.",
  "R10.3": "A player back from sitting out pays the blinds missed: one live (it counts as their bet), "
    + "the others dead (they go to the pot).",
  "R10.4": "A player with no chips is not dealt in.",
};

/** "R4.2: Blinds are ..." for a title attribute; several ids as "R10.2 R10.3". */
function ruleTip(rule) {
  return rule ? rule.split(" ").map((id) => `${id}: ${RULE_SUMMARY[id] || "see RULES.md"}`).join("\n") : "";
}

/** A small rule id with its summary as a tooltip, for the hints. */
function ruleTag(rule) {
  return el("span", { class: "rule-id", title: ruleTip(rule), dataset: { rule } }, rule);
}

const BLIND_NAMES = { small: "the small blind", big: "the big blind", over: "the over blind" };

/**
 * Follow each seat's player through the log (entry `seq` of `kind`): when they sat down, and
 * the first hand they were seen dealt in to (a `hand_start`'s `seats`).
 */
function noteSeats(kind, seq, seat, seats) {
  if (kind === "seated") app.seatSeen[seat] = { sat: seq };
  else if (kind === "left") delete app.seatSeen[seat];
  else if (kind === "hand_start") {
    for (const n of seats || []) {
      const seen = app.seatSeen[n] || (app.seatSeen[n] = {});
      if (seen.dealt === undefined || seen.dealt === null) seen.dealt = seq;
    }
  }
}

/**
 * What a live post of `seat` in the current hand is (R10.2, R10.3): "returning" (dealt in to an
 * earlier hand: blinds missed while away), "new" (sat down since: an entry bet) or null (the
 * log seen does not tell).
 */
function livePost(seat) {
  const seen = app.seatSeen[seat] || {};
  if (seen.dealt !== undefined && seen.dealt !== null && seen.dealt < app.handSeq) return "returning";
  return seen.sat !== undefined && seen.sat !== null ? "new" : null;
}

/**
 * One log line for an event, in plain words, and the rule it follows (for the line's tooltip):
 * {text, rule}, cards written "[Ah]"; null to leave the event out.
 */
function describeEvent(ev, handNumber) {
  const you = ev.seat !== undefined && ev.seat !== null && ev.seat === app.you;
  const who = ev.seat === undefined || ev.seat === null ? "" : you ? "You" : app.names[ev.seat] || `Seat ${ev.seat}`;
  const their = you ? "your" : "their";
  const cards = (ev.cards || []).map((c) => `[${c}]`).join(" ");
  const allIn = ev.all_in ? ", all-in" : "";
  const line = (text, rule) => ({ text, rule: rule || "" });
  switch (ev.kind) {
    case "hand_start": {
      const button = ev.button === app.you ? "you have" : `${app.names[ev.button] || `seat ${ev.button}`} has`;
      return line(`— Hand #${ev.hand || handNumber} — ${button} the button (the dealer)`, "R4.1");
    }
    case "post_blind": {
      if (ev.blind === "dead") {
        return line(`${who} post${s(ev)} ${ev.amount} for a missed blind: it goes to the pot and does not count `
          + `as ${their} bet`, "R10.3");
      }
      if (ev.blind === "live") {
        const history = livePost(ev.seat);
        if (history === "new") {
          return line(`${who} post${s(ev)} an entry bet of ${ev.amount} to join the game (it counts as ${their} `
            + `bet)${allIn}`, "R10.2");
        }
        if (history === "returning") {
          return line(`${who} post${s(ev)} ${ev.amount} for the blinds missed while away (it counts as ${their} `
            + `bet)${allIn}`, "R10.3");
        }
        return line(`${who} post${s(ev)} ${ev.amount} to be dealt in, as a new or returning player (it counts as `
          + `${their} bet)${allIn}`, "R10.2 R10.3");
      }
      const short = ev.all_in ? ", all-in (no more chips)" : "";
      return line(`${who} post${s(ev)} ${BLIND_NAMES[ev.blind] || "a blind"} of ${ev.amount}${short}`,
        ev.all_in ? "R4.2 R4.5" : "R4.2");
    }
    case "deal_hole": return ev.cards ? line(`Dealt to you: ${cards}`, "R5.1") : null;
    case "fold": return line(`${who} fold${s(ev)}`, "R5.2");
    case "check": return line(`${who} check${s(ev)}`, "R5.2");
    case "call": return line(`${who} call${s(ev)} ${ev.amount}${allIn}`, "R5.2");
    case "bet":
    case "raise": {
      const verb = ev.kind === "bet" ? `bet${s(ev)} ${ev.amount}` : `raise${s(ev)} to ${ev.amount}`;
      const short = ev.all_in && ev.full === false
        ? " — less than a full raise, so those who already acted may only call or fold" : "";
      return line(`${who} ${verb}${allIn}${short}`, short ? "R3.4 R3.5" : "R3.4");
    }
    case "split": return line(`${who} vote${s(ev)} to split the pot (Parole)`, "R8.1");
    case "decline": return line(`${who} decline${s(ev)} to split the pot`, "R8.2");
    case "timeout":
      return ev.rule === "R6.3"
        ? line(`${who} ran out of time in the draw: ${you ? "you stand" : "stands"} pat and may not bet or raise `
          + "in the second round", "R6.3")
        : line(`${who} ran out of time`, "R7.3");
    case "raise_withdrawn":
      return line(`${who} took too long: no more raising this turn (only check, call or fold)`, "R7.3");
    case "discard":
      if (ev.cards) return line(`You discard ${cards}`, "R6.1");
      return line(ev.amount ? `${who} draw${s(ev)} ${ev.amount} new card${ev.amount === 1 ? "" : "s"}`
        : `${who} stand${s(ev)} pat (keep${s(ev)} all 5 cards)`, "R6.1");
    case "deal_draw":
      return ev.cards && ev.cards.length ? line(`You draw ${cards}`, ev.reshuffled ? "R6.1 R6.2" : "R6.1") : null;
    case "reshuffle": return line("The deck ran short: the discarded cards are shuffled to complete the draw", "R6.2");
    case "round_end": return line(`End of the ${ev.round === "second-round" ? "second" : "first"} betting round: `
      + `the pot is ${ev.amount}`, "R5.3");
    case "return_uncalled": return line(`${who} take${s(ev)} back ${ev.amount} that nobody called`, "R9.2");
    case "show": return line(`${who} show${s(ev)} ${cards}${ev.hand ? ` — ${ev.hand}` : ""}`, "R9.3");
    case "muck": return line(`${who} muck${s(ev)}: give${s(ev)} up without showing`, "R9.3");
    case "award": {
      const names = (ev.winners || []).map((w) => (w === app.you ? "You" : app.names[w] || `seat ${w}`));
      const pot = ev.pot ? `side pot ${ev.pot}` : "the pot";
      const verb = ev.shared || names.length > 1 ? "share" : names[0] === "You" ? "win" : "wins";
      return line(`${names.join(" and ")} ${verb} ${ev.amount} from ${pot}`, "R9.4");
    }
    case "hand_end": return line(`Hand #${handNumber} is over`);
    case "seated": return line(`${ev.name} sits down at seat ${ev.seat} with ${ev.chips} chips`
      + `${ev.bot ? ` (a ${ev.bot} bot)` : ""}`, "R10.1");
    case "chips_added": return line(`${who} add${s(ev)} ${ev.chips} chips`, "R10.1");
    case "sat_out": {
      if (ev.reason === "cannot_buy_in") {
        return line(`${who} sit${s(ev)} out: the table cannot take more chips for a new buy-in`, "R3.2");
      }
      const why = ev.reason === "disconnected" ? " (disconnected)" : "";
      return line(`${who} sit${s(ev)} out${why}: not dealt in until back`, "R10.3");
    }
    case "sat_in": return line(`${who} ${you ? "are" : "is"} back${ev.reason === "returned" ? " (reconnected)" : ""}`
      + " and will be dealt in", "R10.3");
    case "left": return line(`${who} leave${s(ev)} the table with ${ev.chips} chips`);
    case "time_bank": return line(`${who} ${you ? "are" : "is"} using the time bank (${Math.round(ev.left)} s left)`);
    default: return line(`${ev.kind}${who ? ` (${who})` : ""}`);
  }
}

/** Verb ending: "You call", "ann calls". */
function s(ev) {
  return ev.seat === app.you ? "" : "s";
}

const LOG_LIMIT = 300;
const logKey = () => `pd32.log.${app.tableId}`;

/** Log entries kept for a reload: [{text, rule, kind, seq, hand, seat, chips, seats}, ...] (sessionStorage). */
function storedLog() {
  try {
    return JSON.parse(sessionStorage.getItem(logKey())) || [];
  } catch (e) {
    return [];
  }
}

function addLogLine(entry) {
  appendLogLine(entry);
  sessionStorage.setItem(logKey(), JSON.stringify([...storedLog(), entry].slice(-LOG_LIMIT)));
}

/**
 * One <li>, with data-kind, data-seq, data-hand (and data-seat, data-chips, data-rule where they
 * apply); the rule's id and summary are its tooltip (title), never its text.
 */
function appendLogLine({ text, rule, kind, seq, hand, seat, chips }) {
  const log = $("#log");
  const parts = text.split(/\[([7-9TJQKA][hdcs])\]/);     // odd parts are cards
  log.append(el("li", {
    class: `log-${kind}`, title: rule ? ruleTip(rule) : null, dataset: { kind, seq, hand, seat, chips, rule: rule || null },
  }, parts.map((p, i) => (i % 2 ? cardText(p) : p))));
  while (log.children.length > LOG_LIMIT) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** Forget the stored log lines after `seq` (they are about to be replayed). */
function dropLogAfter(seq) {
  sessionStorage.setItem(logKey(), JSON.stringify(storedLog().filter((e) => !(e.seq > seq))));
}

function restoreLog() {
  for (const entry of storedLog()) {
    appendLogLine(entry);
    noteSeats(entry.kind, entry.seq, entry.seat, entry.seats);
  }
}
