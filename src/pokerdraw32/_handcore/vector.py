"""Many tables stepped together in compiled code: the core of :class:`pokerdraw32.env.DrawVectorEnv`.

Written in Cython's pure-Python mode, as :mod:`pokerdraw32._handcore.play`: ``_handcore/vector.py`` with the
declarations of ``_handcore/vector.pxd``, compiled by setup.py as ``pokerdraw32._handcore.vector_c``, or this very
file as plain Python; :mod:`pokerdraw32._kernels` picks one (``_kernels.vector``).

Each table plays one learning seat against built-in opponents (the rule-based and random bots'
policies of :mod:`pokerdraw32._handcore.play`), one hand an episode, exactly as
:class:`pokerdraw32.env.DrawEnv` does with the same seed: every random draw of a table (the
button, the deck and the R6.2 reshuffle, the opponents' choices) comes from the table's one
:class:`~pokerdraw32.Rng`, in the same order.  :meth:`VectorCore.step` advances every table by
one decision of its learning seat, then its opponents up to the seat's next decision or the end of
the hand, and writes the observations (:func:`pokerdraw32._handcore.encode.observe`), legal-action masks,
rewards (big blinds) and terminations into the caller's buffers.  Compiled, the whole step runs
without the GIL: the hands are reached through borrowed pointers that the core's Python list keeps
alive.

Every hand dealt is an episode, so that results are per hand dealt: a hand in which the learning
seat has no decision (everyone folds to its big blind) is one *acknowledge* step, as in
DrawEnv: the observation is the hand's end (phase complete), the mask has one legal action,
``CHECK_CALL`` (index 1), and that action ends the episode with the hand's result
(:meth:`VectorCore.no_decision` tells such tables).

A table whose hand ended at the previous step starts its next hand instead of taking an action
(Gymnasium's ``NEXT_STEP`` autoreset): its action is ignored, its reward is 0 and its
termination False.  :meth:`VectorCore.deal_ended` instead deals those tables their next hand at
once (the ``SAME_STEP`` autoreset of Stable-Baselines3 and Gymnasium's ``SAME_STEP`` mode); each
table's generator is drawn in the same order either way.
"""

if __name__ == "pokerdraw32._handcore.vector_c":   # compiled (setup.py); see _handcore/state.py
    import cython
else:
    from . import cython_shim as cython

from _thread import allocate_lock

from ..errors import MAX_CHIPS, PokerDraw32TypeError, PokerDraw32ValueError, integer

if not cython.compiled:   # compiled, _handcore/vector.pxd cimports these (the same names, C functions and enums)
    from .._core_py import Rng
    from .codes import PH_COMPLETE
    from .encode import BET0, CHECK_CALL, DISCARDS, OBS_SIZE, _check_buckets, _decode, _fill_mask, _observe
    from .play import RANDOM, RULE, _decide, apply_decision, packed_hand
    from .state import HandCore


class VectorCore:
    """``count`` tables of ``players`` seats, seat ``seat`` learning, the others playing
    ``policies`` (RULE or RANDOM, one per seat; the learning seat's is not read), every stack
    ``stack`` chips at each deal, bet/raise ``buckets`` as in :mod:`pokerdraw32._handcore.encode`.

    :param hand_class: the hands' class (:class:`pokerdraw32.hand.Hand`).
    :param big_blind: the reward's unit, in chips.
    :raises PokerDraw32ValueError: bad players, seat, stack, count, policies or buckets.
    """

    if cython.compiled:
        def __dealloc__(self):
            PyMem_Free(self._ptrs)    # noqa: F821 -- cimported in _handcore/vector.pxd
            PyMem_Free(self._gens)    # noqa: F821
            PyMem_Free(self._done)    # noqa: F821
            PyMem_Free(self._pending)  # noqa: F821
            PyMem_Free(self._nodec)    # noqa: F821

    def __init__(self, hand_class, rules, players, seat, stack, big_blind, policies, buckets, count):
        n = integer(players)
        if n is None or not 2 <= n <= 5:
            raise PokerDraw32ValueError(f"players={players!r}: a hand is dealt to 2 to 5 players [R3.1]")
        learner = integer(seat)
        if learner is None or not 0 <= learner < n:
            raise PokerDraw32ValueError(f"seat={seat!r}: the learning seat must be 0..{n - 1}")
        chips = integer(stack)
        if chips is None or chips <= 0 or n * chips > MAX_CHIPS:
            raise PokerDraw32ValueError(f"stack={stack!r} must be a positive number of chips, at most {MAX_CHIPS} "
                                        f"for the {n} seats together [R3.2]")
        tables = integer(count)
        if tables is None or not 1 <= tables <= 1 << 24:
            raise PokerDraw32ValueError(f"num_envs={count!r} must be 1 to {1 << 24} tables")
        unit = integer(big_blind)
        if unit is None or unit <= 0:
            raise PokerDraw32ValueError(f"big_blind={big_blind!r} must be a positive number of chips")
        if len(policies) != n:
            raise PokerDraw32ValueError(f"{len(policies)} policies for {n} seats")
        if not (isinstance(hand_class, type) and issubclass(hand_class, HandCore)):
            raise PokerDraw32TypeError(f"hand_class must be a subclass of the hand's core, got {hand_class!r}")
        for s in range(n):
            if s != learner and (type(policies[s]) is not int or (policies[s] != RULE and policies[s] != RANDOM)):
                raise PokerDraw32ValueError(f"policies[{s}]={policies[s]!r}: use RULE or RANDOM")
        values = [float(b) for b in buckets]
        if cython.compiled:
            from array import array
            view = array("d", values)
        else:
            view = values
        nb = _check_buckets(view)
        if (self._count if cython.compiled else self.__dict__.get("_count", 0)):
            raise PokerDraw32ValueError("a VectorCore is set up once (__init__ again would change its tables under "
                                        "their hands)")
        self._alloc(tables)                   # everything checked: nothing below can fail but memory
        self._n = n
        self._seat = learner
        self._stack = chips
        self._bb = unit
        self._count = tables
        for s in range(n):
            self._pol[s] = policies[s] if s != learner else -1
            self._stacks[s] = chips
        self._buckets = values
        self._bview = view
        self._nb = nb
        self._actions = BET0 + nb + DISCARDS
        self._rules = rules
        self._hand_class = hand_class
        self._hands = []
        self._rngs = []
        self._decisions = 0
        self._ready = False
        self._lock = allocate_lock()

    def _alloc(self, count):
        if cython.compiled:
            self._ptrs = cython.cast(cython.pointer(PyObjectPtr), PyMem_Malloc(  # noqa: F821 -- _handcore/vector.pxd
                count * cython.sizeof(PyObjectPtr)))  # noqa: F821
            self._gens = cython.cast(cython.pointer(gen_t), PyMem_Malloc(count * cython.sizeof(gen_t)))  # noqa: F821
            self._done = cython.cast(cython.p_char, PyMem_Malloc(count))  # noqa: F821
            self._pending = cython.cast(cython.p_longlong, PyMem_Malloc(  # noqa: F821
                count * cython.sizeof(cython.longlong)))
            self._nodec = cython.cast(cython.p_char, PyMem_Malloc(count))  # noqa: F821
            if self._ptrs == cython.NULL or self._gens == cython.NULL or self._done == cython.NULL \
                    or self._pending == cython.NULL or self._nodec == cython.NULL:
                raise MemoryError()
            memset(self._done, 0, count)  # noqa: F821 -- cimported in _handcore/vector.pxd
            memset(self._nodec, 0, count)  # noqa: F821
        else:
            self._ptrs = [None] * count
            self._gens = [None] * count
            self._done = [0] * count
            self._pending = [0] * count
            self._nodec = [0] * count
            self._pol = [0] * 5
            self._stacks = [0] * 5

    @property
    def actions(self):
        """The size of the action space (``35 + len(buckets)``)."""
        return self._actions

    @property
    def decisions(self):
        """Decisions made so far by every seat of every table (learning seats and opponents)."""
        return self._decisions

    @property
    def hands(self):
        """The tables' current hands (the dealer's objects: every card; for inspection and tests)."""
        return list(self._hands)

    def reset(self, seeds, obs, mask):
        """Seed table ``i`` with ``Rng(seeds[i])`` (None: from the operating system), deal each a
        hand with a learning decision, and write the observations and masks.

        :param obs: ``float32[count, OBS_SIZE]``.  :param mask: ``uint8[count, actions]``.
        """
        count = self._count
        if len(seeds) != count:
            raise PokerDraw32ValueError(f"{len(seeds)} seeds for {count} tables")
        self._check_buffers(obs, mask)
        self._writable(obs, mask)             # the buffers' types, before any hand changes
        self._enter()
        try:
            return self._reset(list(seeds), obs, mask)
        finally:
            self._lock.release()

    def _enter(self):
        if not self._lock.acquire(False):
            raise PokerDraw32ValueError("the tables are being stepped in another thread: an environment belongs to "
                                        "one thread at a time")
        return 0

    def _writable(self, obs, mask):
        """The buffers hold float32 and uint8 and are writable, checked before any hand changes
        (compiled, converting them to the typed views of the signature does it)."""
        if not cython.compiled:
            for name, buffer, kind in (("obs", obs, "float32"), ("mask", mask, "uint8")):
                dtype = getattr(buffer, "dtype", None)
                if dtype is not None and str(dtype) != kind:
                    raise PokerDraw32TypeError(f"{name} must hold {kind}, not {dtype}")
                flags = getattr(buffer, "flags", None)
                if flags is not None and not flags.writeable:
                    raise PokerDraw32ValueError(f"{name} is read-only")
        return 0

    def _reset(self, seeds, obs, mask):
        count = self._count
        rngs = [Rng(seed) for seed in seeds]
        self._ready = False
        if len(self._hands) != count:
            hands = []
            for _ in range(count):
                made = self._hand_class.__new__(self._hand_class)
                if not isinstance(made, HandCore):
                    raise PokerDraw32TypeError(f"{self._hand_class.__name__}.__new__ gave {made!r}, not a hand")
                hands.append(made)
            if len({id(h) for h in hands}) != count:
                raise PokerDraw32TypeError(f"{self._hand_class.__name__}.__new__ gave the same object twice: every "
                                           "table needs its own hand")
            self._hands = hands
        stacks = [self._stack] * self._n
        stub = list(range(32))
        for i in range(count):
            h = self._hands[i]
            # the rules, the stacks and the generator (from a fixed stub: nothing drawn); the first
            # episode's hand is dealt by _episode, as every later one
            cython.cast(HandCore, h)._setup(self._rules, stacks, 0, rngs[i], stub, True, [])
            if cython.compiled:
                self._ptrs[i] = cython.cast(PyObjectPtr, h)  # noqa: F821 -- _handcore/vector.pxd
                self._gens[i] = rng_state(rngs[i])  # noqa: F821 -- cimported from _core
            else:
                self._ptrs[i] = h
                self._gens[i] = rngs[i]
            self._done[i] = 0
            self._nodec[i] = 0
        self._rngs = rngs
        self._ready = True
        return self._deal_all(obs, mask)

    def _deal_all(self, obs, mask):
        with cython.nogil:
            for i in range(self._count):
                self._episode(cython.cast(HandCore, self._ptrs[i]), i)
            self._write(obs, mask)
        return 0

    def _check_buffers(self, obs, mask):
        if obs.shape[0] != self._count or obs.shape[1] < OBS_SIZE:
            raise PokerDraw32ValueError(f"obs must be float32[{self._count}, {OBS_SIZE}], got shape {obs.shape}")
        if mask.shape[0] != self._count or mask.shape[1] < self._actions:
            raise PokerDraw32ValueError(f"mask must be uint8[{self._count}, {self._actions}], got shape {mask.shape}")
        return 0

    def step(self, actions, obs, mask, rewards, terminated):
        """One step of every table (see the module's docstring).

        :param actions: ``int64[count]``, an action index a table.
        :param obs: ``float32[count, OBS_SIZE]``, written.  :param mask: ``uint8[count, actions]``, written.
        :param rewards: ``float64[count]``, written: the learning seat's result in big blinds when
            its hand ended in this step, else 0.
        :param terminated: ``uint8[count]``, written: 1 when the hand ended in this step.
        :returns: -1, or the first table whose action is outside its mask: nothing was changed
            then (the caller raises, naming it).
        """
        if not self._ready:
            raise PokerDraw32ValueError("call reset() before step()")
        count = self._count
        if actions.shape[0] != count or rewards.shape[0] != count or terminated.shape[0] != count:
            raise PokerDraw32ValueError(f"actions, rewards and terminated must have {count} entries")
        self._check_buffers(obs, mask)
        self._enter()
        try:
            return self._step(actions, obs, mask, rewards, terminated)
        finally:
            self._lock.release()

    def _step(self, actions, obs, mask, rewards, terminated):
        with cython.nogil:
            bad = self._validate(actions)
        if bad >= 0:
            return bad
        for i in range(self._count):   # what Python read of a hand that is dealt again goes
            if self._done[i]:
                cython.cast(HandCore, self._hands[i])._forget()
        with cython.nogil:
            self._advance(rewards, terminated)
            self._write(obs, mask)
        return -1

    def deal_ended(self, obs, mask):
        """Deal every table whose hand ended at the last step its next hand now (``SAME_STEP``
        autoreset), and write those tables' observations and masks (the other rows are left as
        they are).  The next :meth:`step` then takes an action at every table.

        :param obs: ``float32[count, OBS_SIZE]``.  :param mask: ``uint8[count, actions]``.
        :returns: the number of tables dealt.
        """
        if not self._ready:
            raise PokerDraw32ValueError("call reset() before deal_ended()")
        self._check_buffers(obs, mask)
        self._writable(obs, mask)
        self._enter()
        try:
            return self._deal_ended(obs, mask)
        finally:
            self._lock.release()

    def _deal_ended(self, obs, mask):
        dealt = 0
        for i in range(self._count):   # what Python read of a hand that is dealt again goes
            if self._done[i]:
                cython.cast(HandCore, self._hands[i])._forget()
        with cython.nogil:
            for i in range(self._count):
                if self._done[i]:
                    self._done[i] = 0
                    self._episode(cython.cast(HandCore, self._ptrs[i]), i)
                    self._write_row(obs, mask, i)
                    dealt += 1
        return dealt

    def no_decision(self, out):
        """Write into ``out`` (``uint8[count]``) 1 for each table whose current hand gives its
        learning seat no decision (the acknowledge step, or that hand's end), else 0.

        :returns: the number of such tables.
        """
        if not self._ready:
            raise PokerDraw32ValueError("call reset() before no_decision()")
        if out.shape[0] != self._count:
            raise PokerDraw32ValueError(f"out must have {self._count} entries, got shape {out.shape}")
        return self._flags(out)

    @cython.boundscheck(False)   # no_decision() checked the shape
    @cython.wraparound(False)
    def _flags(self, out):
        count = 0
        for i in range(self._count):
            out[i] = self._nodec[i]
            count += self._nodec[i]
        return count

    @cython.boundscheck(False)   # step() checked the buffers' shapes
    @cython.wraparound(False)
    def _validate(self, actions):
        """Decode every table's action (nothing changes); the first table with an illegal one, or -1."""
        for i in range(self._count):
            if self._done[i]:
                continue
            if not 0 <= actions[i] < self._actions:
                return i
            if self._nodec[i]:          # the acknowledge step of a hand without a learning decision
                if actions[i] != CHECK_CALL:
                    return i
                continue
            if cython.cast(HandCore, self._ptrs[i])._actor != self._seat:   # the learning seat is to act
                return i
            decision = _decode(cython.cast(HandCore, self._ptrs[i]), actions[i], self._bview, self._nb)
            if decision < 0:
                return i
            self._pending[i] = decision
        return -1

    @cython.boundscheck(False)   # step() checked the buffers' shapes
    @cython.wraparound(False)
    def _advance(self, rewards, terminated):
        for i in range(self._count):
            rewards[i] = self._table(cython.cast(HandCore, self._ptrs[i]), i)
            terminated[i] = self._done[i]
        return 0

    def _table(self, h, i):
        """Table ``i``'s step (its hand ``h``): its reward in big blinds (0 but at the hand's end)."""
        seat = self._seat
        if self._done[i]:
            self._done[i] = 0
            self._episode(h, i)
            return 0.0
        if self._nodec[i]:                 # acknowledged: the hand (already complete) is the episode
            self._done[i] = 1
            return (h._stacks[seat] - h._start[seat]) / self._bb
        if not apply_decision(h, seat, self._pending[i]):         # never: _validate decoded it from the mask
            with cython.gil:
                raise AssertionError(f"table {i}: the decision {self._pending[i]:#x} of the mask is refused")
        self._decisions += 1
        self._opponents(h, i)
        if h._phase == PH_COMPLETE:
            self._done[i] = 1
            return (h._stacks[seat] - h._start[seat]) / self._bb
        return 0.0

    def _episode(self, h, i):
        """Deal table ``i`` (hand ``h``) its next hand and play the opponents up to the learning
        seat's first decision, or to the hand's end when it has none (then the table waits for its
        acknowledge step, as DrawEnv.reset)."""
        if cython.compiled:
            button = rng_below(self._gens[i], self._n)  # noqa: F821 -- cimported from _core
        else:
            button = self._gens[i].below(self._n)
        h._restart(self._stacks, button)
        self._opponents(h, i)
        self._nodec[i] = 1 if h._phase == PH_COMPLETE else 0
        return 0

    def _opponents(self, h, i):
        """Play table ``i``'s opponents (hand ``h``) up to the learning seat's decision or the end of
        the hand."""
        while h._phase != PH_COMPLETE and h._actor >= 0 and h._actor != self._seat:
            p = h._actor
            kinds = h._kinds(p)
            if cython.compiled:   # the table's generator state (self: not read, the state is never NULL)
                decision = _decide(h, p, self._pol[p], kinds, packed_hand(h, p), self._gens[i], self)
            else:
                decision = _decide(h, p, self._pol[p], kinds, packed_hand(h, p), None, self._gens[i])
            if not apply_decision(h, p, decision):                 # never: the policies choose among the kinds
                with cython.gil:
                    raise AssertionError(f"table {i}: the policy of seat {p} chose {decision:#x}, which is not legal")
            self._decisions += 1
        return 0

    @cython.boundscheck(False)   # step() checked the buffers' shapes
    @cython.wraparound(False)
    def _write(self, obs, mask):
        for i in range(self._count):
            self._write_row(obs, mask, i)
        return 0

    @cython.boundscheck(False)   # the callers checked the buffers' shapes
    @cython.wraparound(False)
    def _write_row(self, obs, mask, i):
        """Table ``i``'s observation and mask (one legal action, CHECK_CALL, at an acknowledge step)."""
        _observe(cython.cast(HandCore, self._ptrs[i]), self._seat, obs[i], self._stack)
        _fill_mask(cython.cast(HandCore, self._ptrs[i]), mask[i], self._bview, self._nb)
        if self._nodec[i] and not self._done[i]:
            mask[i, CHECK_CALL] = 1
        return 0
