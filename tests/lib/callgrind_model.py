#!/usr/bin/env python3
"""Parse a callgrind-format profile the way KCachegrind 22.12.3 reads it.

Test oracle for gmon2cg (standard library only).  The parser follows
KCachegrind's loader (libcore/cachegrindloader.cpp) and cost model
(libcore/tracedata.cpp):

* header lines: version, creator, cmd, pid, part, thread, positions, event,
  events, summary, totals, desc, arch, "timeframe (BB)";
* body lines: ob= fl= fi= fe= fn= cob= cfi= cfl= cfn= calls=, position/cost
  lines and the call cost line that follows every calls= line (it carries
  the inclusive cost of the call and is never self cost);
* name compression "(N) name" / "(N)" with separate index spaces for
  objects (ob, cob), files (fl, fi, fe, cfi, cfl) and functions (fn, cfn);
  a reference "(N)" names the function created when N was defined;
* sub-position compression (0x hex, decimal, +N, -N, *) for
  "positions: instr line", "positions: line" (default) and "positions: instr".

Function identity is KCachegrind's: name + basename(home file) +
basename(object), the home file being the last fl= before fn=; a call target
uses cfi=/cob= if given since the last call, else the caller's current file
and object.  "???" is the empty name, shown as "(unknown)".

The parser is deliberately stricter than KCachegrind: it exits with an error
for everything KCachegrind logs an error about (unknown keyword lines,
invalid positions, garbage after costs, more cost values than events,
undefined or redefined compression indexes, cost lines without fn=, negative
line numbers, a redefined cmd:, deprecated rcalls=, invalid event: names)
or rejects the file for (data or summary: before events:, no events:), and
also for: tab characters anywhere, NUL bytes, negative or non-decimal costs
and call counts, calls=0, a calls= line not directly followed by its cost
line, a second part (pid:/part:/thread:/positions:/events: after events:),
and jump lines (jump=, jcnd=, jfi=, jfn=), which this model does not handle.

Computed for one event (the first unless --event is given):
* self cost of every function (sum of its cost lines);
* called = sum of incoming call counts, self-calls included;
* inclusive cost with KCachegrind's cycle detection on: strongly connected
  components with more than one member (self loops are not cycles) are found
  by an iterative Tarjan search that visits functions in KCachegrind's order
  (sorted identity keys, callees in order of first call).  Not in a cycle:
  inclusive = sum of the incoming call costs except self-calls if the
  function has incoming calls, else self + sum of its outgoing call costs
  except self-calls.  Cycle member: self + costs of its calls to functions
  outside its cycle.  A cycle: self = sum of member self costs, inclusive =
  sum of member inclusives (KCachegrind's TraceFunction::update);
  "incoming" = sum of the costs of calls entering it from outside;
* per arc (caller, callee): summed call counts and call costs;
* summary:, totals:, and the sum of all self costs (what KCachegrind shows
  as the total; it ignores summary:/totals:).

KCachegrind 22.12.3 misses a cycle when the DFS root is a member (its
"on stack" test fails for the root).  The JSON field "kcg_cycles" lists the
cycles KCachegrind itself would show and "kcg_cycle_bug" is true when they
differ from the true cycles.

Usage: callgrind_model.py FILE [--json] [--event NAME] [--no-cycles]

JSON: {"summary", "totals" (first/selected event value or null),
"summary_values", "totals_values", "self_sum", "events", "event", "desc",
"cmd", "creator", "version", "positions",
"functions": {KEY: {"name", "self", "incl", "called", "file", "object",
"cycle"}}, "arcs": [{"caller", "callee", "count", "cost"}],
"cycles": [[KEY, ...]], "cycle_costs": [{"cycle", "members", "self",
"incl", "incoming", "called"}], "kcg_cycles", "kcg_cycle_bug",
"duplicate_names"}.
KEY is the function name ("(unknown)" for an empty name); when distinct
identities share a name they are keyed "name [file basename]" (and
"name [file basename, object basename]" if that is not enough), which is
reported in "duplicate_names".

Importable: load(path) -> Model; Model.result(event=None, cycles=True)
returns the dict printed by --json.
"""

import argparse
import json
import re
import sys

__all__ = ["CallgrindError", "Model", "Function", "load", "parse_text"]

U64 = (1 << 64) - 1
U32 = (1 << 32) - 1
_DEC = re.compile(r"[0-9]+\Z")
_EVENT_NAME = re.compile(r"[^\W\d]\w*", re.UNICODE)

# KCachegrind's keyword prefixes (after the first character has been used
# for dispatch, but we can simply match whole prefixes).
_NAME_KEYS = ("fl=", "fi=", "fe=", "fn=", "ob=", "cob=", "cfi=", "cfl=",
              "cfn=")


class CallgrindError(Exception):
    """A problem KCachegrind would report (or this stricter model rejects)."""

    def __init__(self, msg, lineno=None):
        Exception.__init__(self, msg)
        self.msg = msg
        self.lineno = lineno

    def __str__(self):
        if self.lineno is None:
            return self.msg
        return "line %d: %s" % (self.lineno, self.msg)


def _short(name):
    """KCachegrind's shortName(): the part after the last '/'."""
    return name[name.rfind("/") + 1:]


class Function(object):
    """One KCachegrind function identity."""

    __slots__ = ("key", "name", "file", "object", "self_cost", "ident", "addr")

    def __init__(self, key, name, file, obj, nevents):
        self.key = key          # KCachegrind map key: name+file+object short
        self.name = name
        self.file = file        # file name as given when it was created
        self.object = obj
        self.self_cost = [0] * nevents
        self.ident = None       # display key, assigned after loading
        self.addr = None        # lowest address of its cost lines, if any

    def display_name(self):
        return self.name if self.name != "" else "(unknown)"


class Arc(object):
    __slots__ = ("caller", "callee", "count", "cost", "lines")

    def __init__(self, caller, callee, nevents):
        self.caller = caller
        self.callee = callee
        self.count = 0
        self.cost = [0] * nevents
        self.lines = 0


class Model(object):
    """The loaded profile.  Attributes:

    events (list of names), positions (list), summary / totals (lists of
    ints or None), desc (list of str), cmd, creator, version (str or None),
    functions (dict key -> Function, in creation order),
    arcs (dict (caller key, callee key) -> Arc, in creation order),
    callings (dict caller key -> callee keys in first-call order).
    """

    def __init__(self):
        self.events = None
        self.positions = ["line"]
        self.summary = None
        self.totals = None
        self.desc = []
        self.cmd = None
        self.creator = None
        self.version = None
        self.functions = {}
        self.arcs = {}
        self.callings = {}
        self.path = None
        self._idents_done = False

    # ------------------------------------------------------------------
    def _assign_idents(self):
        if self._idents_done:
            return
        by_name = {}
        for f in self.functions.values():
            by_name.setdefault(f.display_name(), []).append(f)
        self.duplicate_names = []
        for name, fs in by_name.items():
            if len(fs) == 1:
                fs[0].ident = name
                continue
            self.duplicate_names.append(name)
            short = lambda s: _short(s) or "(unknown)"
            files = [short(f.file) for f in fs]
            for f in fs:
                fb = short(f.file)
                if files.count(fb) == 1:
                    f.ident = "%s [%s]" % (name, fb)
                else:
                    f.ident = "%s [%s, %s]" % (name, fb, short(f.object))
        self.duplicate_names.sort()
        self._idents_done = True

    def event_index(self, event=None):
        if event is None:
            return 0
        if event not in self.events:
            raise CallgrindError("event %r not in events: %s"
                                 % (event, " ".join(self.events)))
        return self.events.index(event)

    # ------------------------------------------------------------------
    def _dfs_order(self):
        """Functions in KCachegrind's QMap order (QString compare)."""
        return sorted(self.functions,
                      key=lambda k: k.encode("utf-16-be", "surrogatepass"))

    def find_cycles(self, kcg_bug=False):
        """Iterative version of TraceFunction::cycleDFS (Tarjan).

        Returns a list of cycles (lists of function keys, members in the
        order KCachegrind pops them), numbered 1.. in discovery order.  With
        kcg_bug=True the "on stack" test is KCachegrind 22.12.3's
        (_cycleStackDown != 0), which is false for the DFS root.
        """
        low = {}
        prefix = {}
        down = {}
        onstack = set()
        cycles = []
        pno = 0
        callings = self.callings
        for root in self._dfs_order():
            if root in low:
                continue
            top = None
            pno += 1
            prefix[root] = low[root] = pno
            down[root] = top
            top = root
            onstack.add(root)
            work = [[root, 0]]
            while work:
                frame = work[-1]
                v = frame[0]
                cs = callings.get(v, ())
                if frame[1] < len(cs):
                    c = cs[frame[1]]
                    frame[1] += 1
                    if c not in low:
                        pno += 1
                        prefix[c] = low[c] = pno
                        down[c] = top
                        top = c
                        onstack.add(c)
                        work.append([c, 0])
                        continue
                    on = (down[c] is not None) if kcg_bug else (c in onstack)
                    if on and low[c] < low[v]:
                        low[v] = low[c]
                    continue
                work.pop()
                if prefix[v] == low[v]:
                    if top == v:
                        top = down[v]
                        down[v] = None
                        onstack.discard(v)
                    else:
                        members = []
                        while top is not None:
                            t = top
                            members.append(t)
                            top = down[t]
                            down[t] = None
                            onstack.discard(t)
                            if t == v:
                                break
                        cycles.append(members)
                if work:
                    p = work[-1][0]
                    if low[v] < low[p]:
                        low[p] = low[v]
        return cycles

    # ------------------------------------------------------------------
    def result(self, event=None, cycles=True):
        """Compute the numbers for one event; returns the JSON dict."""
        self._assign_idents()
        ei = self.event_index(event)
        funcs = self.functions
        arcs = self.arcs

        selfc = dict((k, f.self_cost[ei]) for k, f in funcs.items())
        called = dict((k, 0) for k in funcs)
        incoming = dict((k, []) for k in funcs)   # arcs into k
        outgoing = dict((k, []) for k in funcs)   # arcs out of k
        for (a, b), arc in arcs.items():
            called[b] += arc.count
            incoming[b].append(arc)
            outgoing[a].append(arc)

        true_cycles = self.find_cycles(kcg_bug=False)
        kcg_cycles = self.find_cycles(kcg_bug=True)
        norm = lambda cs: sorted(sorted(c) for c in cs)
        kcg_bug = norm(true_cycles) != norm(kcg_cycles)

        cyc_of = {}
        if cycles:
            for n, members in enumerate(true_cycles, 1):
                for m in members:
                    cyc_of[m] = n

        incl = {}
        for k in funcs:
            n = cyc_of.get(k)
            if n is not None:
                v = selfc[k]
                for arc in outgoing[k]:
                    if cyc_of.get(arc.callee) != n:
                        v += arc.cost[ei]
            elif called[k] > 0:
                v = 0
                for arc in incoming[k]:
                    if arc.caller != k:
                        v += arc.cost[ei]
            else:
                v = selfc[k]
                for arc in outgoing[k]:
                    if arc.callee != k:
                        v += arc.cost[ei]
            incl[k] = v

        ident = lambda k: funcs[k].ident
        out_funcs = {}
        for k, f in funcs.items():
            out_funcs[f.ident] = {
                "name": f.name,
                "self": selfc[k],
                "incl": incl[k],
                "called": called[k],
                "file": f.file,
                "object": f.object,
                "cycle": cyc_of.get(k),
            }
        out_arcs = []
        for (a, b), arc in arcs.items():
            out_arcs.append({"caller": ident(a), "callee": ident(b),
                             "count": arc.count, "cost": arc.cost[ei]})
        out_arcs.sort(key=lambda d: (d["caller"], d["callee"]))

        cycle_costs = []
        if cycles:
            for n, members in enumerate(true_cycles, 1):
                mset = set(members)
                inc = 0
                cnt = 0
                for m in members:
                    for arc in incoming[m]:
                        if arc.caller not in mset:
                            inc += arc.cost[ei]
                            cnt += arc.count
                cycle_costs.append({
                    "cycle": n,
                    "members": [ident(m) for m in members],
                    "self": sum(selfc[m] for m in members),
                    "incl": sum(incl[m] for m in members),
                    "incoming": inc,
                    "called": cnt,
                })

        def pick(vals):
            if vals is None:
                return None
            return vals[ei] if ei < len(vals) else 0

        return {
            "file_name": self.path,
            "summary": pick(self.summary),
            "totals": pick(self.totals),
            "summary_values": self.summary,
            "totals_values": self.totals,
            "self_sum": sum(selfc.values()),
            "events": list(self.events),
            "event": self.events[ei],
            "desc": list(self.desc),
            "cmd": self.cmd,
            "creator": self.creator,
            "version": self.version,
            "positions": list(self.positions),
            "functions": out_funcs,
            "arcs": out_arcs,
            "cycles": ([[ident(m) for m in c] for c in true_cycles]
                       if cycles else []),
            "cycle_costs": cycle_costs,
            "kcg_cycles": [[ident(m) for m in c] for c in kcg_cycles],
            "kcg_cycle_bug": kcg_bug,
            "cycle_detection": bool(cycles),
            "duplicate_names": list(self.duplicate_names),
        }


class _Parser(object):
    def __init__(self):
        self.m = Model()
        self.lineno = 0
        self.has_line = True
        self.has_addr = False
        self.addr = 0
        self.line = 0
        self.obj_vec = {}
        self.file_vec = {}
        self.fn_vec = {}
        self.cur_obj = None
        self.cur_file = None
        self.fn_file = None
        self.cur_fn = None
        self.called_obj = None
        self.called_file = None
        self.called_fn = None
        self.pending_call = None   # call count of a calls= line
        # An object told of what the model itself does not keep, for
        # checkers (check_callgrind.py), each call with the line number
        # last: define(space, index, identity) at every "(N) name" (a
        # function's identity: name, file and object base names),
        # call_target(callee Function, rest of calls=), cost(Function,
        # address or None, values, is_call); and, where the observer has
        # it, position(address or None, file name, line, is_call) after
        # each cost.
        self.observer = None

    def err(self, msg):
        raise CallgrindError(msg, self.lineno)

    # --- names ---------------------------------------------------------
    def _decompress(self, kind, value, vec, lookup_name):
        """Returns (is_definition_or_plain, name_or_stored, index).

        For a reference returns the stored value of the index."""
        if len(value) >= 2 and value[0] == "(" and value[1].isdigit():
            p = value.find(")")
            if p < 2:
                self.err("Invalid compressed %s ('%s')" % (kind, value))
            digits = value[1:p]
            if not _DEC.match(digits):
                self.err("Invalid compressed %s ('%s')" % (kind, value))
            idx = int(digits)
            rest = value[p + 1:].lstrip(" ")
            if rest:
                real = "" if rest == "???" else rest
                if idx in vec and lookup_name(vec[idx]) != real:
                    self.err("Redefinition of compressed %s index %d "
                             "(was '%s') to %s"
                             % (kind, idx, lookup_name(vec[idx]), real))
                return ("def", real, idx)
            if idx not in vec:
                self.err("Undefined compressed %s index %d" % (kind, idx))
            return ("ref", vec[idx], idx)
        return ("plain", "" if value == "???" else value, None)

    def obj_name(self, value):
        how, v, idx = self._decompress("ELF object", value, self.obj_vec,
                                       lambda x: x)
        if how == "def":
            self.obj_vec[idx] = v
            if self.observer:
                self.observer.define("object", idx, v, self.lineno)
        return v

    def file_name(self, value):
        how, v, idx = self._decompress("file", value, self.file_vec,
                                       lambda x: x)
        if how == "def":
            self.file_vec[idx] = v
            if self.observer:
                self.observer.define("file", idx, v, self.lineno)
        return v

    def function(self, value, file, obj):
        how, v, idx = self._decompress(
            "function", value, self.fn_vec,
            lambda k: self.m.functions[k].name)
        if how == "ref":
            return v
        key = self.get_function(v, file, obj)
        if how == "def":
            self.fn_vec[idx] = key
            if self.observer:
                self.observer.define("function", idx,
                                     (v, _short(file), _short(obj)),
                                     self.lineno)
        return key

    def get_function(self, name, file, obj):
        key = name + _short(file) + _short(obj)
        if key not in self.m.functions:
            n = len(self.m.events) if self.m.events else 0
            self.m.functions[key] = Function(key, name, file, obj, n)
        return key

    # --- numbers -------------------------------------------------------
    def _uint(self, s, i, bits, what):
        """KCachegrind stripUInt/stripUInt64: decimal or 0x hex."""
        n = len(s)
        if i >= n or not ("0" <= s[i] <= "9"):
            self.err("Invalid position specification '%s' (%s)" % (s, what))
        if s[i] == "0" and i + 1 < n and s[i + 1] == "x":
            j = i + 2
            while j < n and s[j] in "0123456789abcdefABCDEF":
                j += 1
            if j == i + 2:
                self.err("Invalid position specification '%s' (empty hex "
                         "number)" % s)
            v = int(s[i + 2:j], 16)
        else:
            j = i
            while j < n and "0" <= s[j] <= "9":
                j += 1
            v = int(s[i:j])
        if v >> bits:
            self.err("number too large in '%s'" % s)
        return v, j

    def parse_position(self, s):
        """Parses the sub-positions; returns the index of the costs."""
        i = 0
        n = len(s)
        if self.has_addr:
            if i >= n:
                self.err("Invalid position specification '%s'" % s)
            c = s[i]
            if c == "*":
                addr = self.addr
                i += 1
            elif c == "+" or c == "-":
                d, i = self._uint(s, i + 1, 32, "address difference")
                addr = (self.addr + d if c == "+" else self.addr - d) & U64
            elif "0" <= c <= "9":
                addr, i = self._uint(s, i, 64, "address")
            else:
                self.err("Invalid position specification '%s'" % s)
            if i < n and s[i] in "+-:":      # range, unused
                _, i = self._uint(s, i + 1, 64 if s[i] != "+" else 32,
                                  "address range")
            while i < n and s[i] == " ":
                i += 1
            self.addr = addr
        if self.has_line:
            if i >= n or s[i] > "9":
                self.err("Invalid position specification '%s'" % s)
            c = s[i]
            if c == "*":
                line = self.line
                i += 1
            elif c == "+":
                d, i = self._uint(s, i + 1, 32, "line difference")
                line = (self.line + d) & U32
            elif c == "-":
                d, i = self._uint(s, i + 1, 32, "line difference")
                if self.line < d:
                    self.err("Negative line number %d" % (self.line - d))
                line = self.line - d
            elif "0" <= c <= "9":
                line, i = self._uint(s, i, 32, "line")
            else:
                self.err("Invalid position specification '%s'" % s)
            if i < n and s[i] in "+-:":      # range, unused
                _, i = self._uint(s, i + 1, 32, "line range")
            while i < n and s[i] == " ":
                i += 1
            self.line = line
        return i

    def parse_costs(self, s, what):
        toks = s.split(" ")
        vals = []
        for t in toks:
            if t == "":
                continue
            if not _DEC.match(t):
                self.err("Garbage at end of %s ('%s'): costs must be "
                         "non-negative decimal integers" % (what, t))
            v = int(t)
            if v > U64:
                self.err("cost %s does not fit in 64 bits" % t)
            vals.append(v)
        if len(vals) > len(self.m.events):
            self.err("Garbage at end of %s: %d cost values for %d events"
                     % (what, len(vals), len(self.m.events)))
        return vals

    def parse_value_list(self, v, what):
        vals = []
        for t in v.split():
            if not _DEC.match(t):
                self.err("%s: '%s' is not a non-negative decimal integer"
                         % (what, t))
            vals.append(int(t))
        if self.m.events is not None and len(vals) > len(self.m.events):
            self.err("%s: %d values for %d events"
                     % (what, len(vals), len(self.m.events)))
        return vals

    # --- lines ---------------------------------------------------------
    def new_part_check(self, what):
        if self.m.events is not None:
            self.err("'%s' after 'events:' starts a second part; this model "
                     "supports one part per file" % what)

    def cost_line(self, s):
        if self.m.events is None:
            self.err("Invalid format: data found before 'events' line. "
                     "Skipping file")
        i = self.parse_position(s)
        if self.cur_fn is None:
            self.err("Function not specified, setting to unknown")
        if self.pending_call is not None:
            vals = self.parse_costs(s[i:], "call cost line")
            key = (self.cur_fn, self.called_fn)
            arc = self.m.arcs.get(key)
            if arc is None:
                arc = Arc(self.cur_fn, self.called_fn, len(self.m.events))
                self.m.arcs[key] = arc
                self.m.callings.setdefault(self.cur_fn, []).append(
                    self.called_fn)
            arc.count += self.pending_call
            arc.lines += 1
            for j, v in enumerate(vals):
                arc.cost[j] += v
            self.pending_call = None
            if self.observer:
                self.observer.cost(self.m.functions[self.cur_fn],
                                   self.addr if self.has_addr else None,
                                   vals, True, self.lineno)
                self._tell_position(True)
            self.called_obj = None
            self.called_file = None
        else:
            vals = self.parse_costs(s[i:], "cost line")
            fn = self.m.functions[self.cur_fn]
            if self.has_addr and (fn.addr is None or self.addr < fn.addr):
                fn.addr = self.addr
            sc = fn.self_cost
            for j, v in enumerate(vals):
                sc[j] += v
            if self.observer:
                self.observer.cost(fn, self.addr if self.has_addr else None,
                                   vals, False, self.lineno)
                self._tell_position(False)

    def _tell_position(self, is_call):
        """position(address or None, file name, line, is_call) to an
        observer that asks for positions."""
        if hasattr(self.observer, "position"):
            self.observer.position(self.addr if self.has_addr else None,
                                   self.cur_file, self.line, is_call)

    def keyword_line(self, s):
        m = self.m
        if self.pending_call is not None:
            self.err("'calls=' must be followed by its call cost line, "
                     "found '%s'" % s)
        if s.startswith("fl="):
            self.cur_file = self.file_name(s[3:])
            self.fn_file = self.cur_file
        elif s.startswith("fi=") or s.startswith("fe="):
            self.cur_file = self.file_name(s[3:])
        elif s.startswith("fn="):
            self.cur_file = self.fn_file
            if self.cur_file is None:
                self.cur_file = ""
            if self.cur_obj is None:
                self.cur_obj = ""
            self.cur_fn = self.function(s[3:], self.cur_file, self.cur_obj)
        elif s.startswith("ob="):
            self.cur_obj = self.obj_name(s[3:])
            self.cur_fn = None
        elif s.startswith("cob="):
            self.called_obj = self.obj_name(s[4:])
        elif s.startswith("cfi=") or s.startswith("cfl="):
            self.called_file = self.file_name(s[4:])
        elif s.startswith("cfn="):
            if self.called_obj is None:
                self.called_obj = self.cur_obj
            if self.called_file is None:
                self.called_file = self.cur_file
            if self.called_obj is None or self.called_file is None:
                self.err("Invalid called function, setting to unknown "
                         "('cfn=' before any 'fn=')")
            self.called_fn = self.function(s[4:], self.called_file,
                                           self.called_obj)
        elif s.startswith("calls="):
            rest = s[6:]
            mm = re.match(r"([0-9]+)(?: |\Z)", rest)
            if not mm:
                self.err("calls= needs a decimal call count: '%s'" % s)
            count = int(mm.group(1))
            if count == 0:
                self.err("calls=0 (callgrind_annotate would add the call "
                         "cost to the caller's self cost)")
            if count > U64:
                self.err("call count does not fit in 64 bits")
            if self.called_fn is None:
                self.err("'calls=' without a preceding 'cfn='")
            if m.events is None:
                self.err("Invalid format: data found before 'events' line. "
                         "Skipping file")
            self.pending_call = count
            if self.observer:
                self.observer.call_target(m.functions[self.called_fn],
                                          rest[mm.end():],
                                          self.lineno)
        elif s.startswith("rcalls="):
            self.err("Old file format using deprecated 'rcalls'")
        elif s.startswith("jump=") or s.startswith("jcnd=") or \
                s.startswith("jfi=") or s.startswith("jfn="):
            self.err("jump lines are not supported by this model: '%s'" % s)
        elif s.startswith("cmd:"):
            cmd = s[4:].strip()
            if m.cmd is not None and m.cmd != cmd:
                self.err("Redefined command, was '%s'" % m.cmd)
            m.cmd = cmd
        elif s.startswith("creator:"):
            m.creator = s[8:].strip()
        elif s.startswith("version:"):
            m.version = s[8:].strip()
        elif s.startswith("totals:"):
            m.totals = self.parse_value_list(s[7:], "totals:")
        elif s.startswith("summary:"):
            if m.events is None:
                self.err("Invalid format: summary before data. Skipping file")
            m.summary = self.parse_value_list(s[8:], "summary:")
        elif s.startswith("thread:") or s.startswith("pid:") or \
                s.startswith("part:"):
            self.new_part_check(s.split(":")[0] + ":")
        elif s.startswith("timeframe (BB):"):
            pass
        elif s.startswith("desc:"):
            m.desc.append(s[5:].strip(" "))
        elif s.startswith("events:"):
            self.new_part_check("events:")
            names = s[7:].split()
            if not names:
                self.err("'events:' without event names")
            if len(set(names)) != len(names):
                self.err("duplicate event name in '%s'" % s)
            m.events = names
            for f in m.functions.values():
                f.self_cost = [0] * len(names)
        elif s.startswith("event:"):
            v = s[6:].strip(" ")
            if not _EVENT_NAME.match(v):
                self.err("Invalid event")
        elif s.startswith("positions:"):
            self.new_part_check("positions:")
            toks = s[10:].split()
            for t in toks:
                if t not in ("instr", "line"):
                    self.err("positions: '%s' is not supported (only instr "
                             "and line)" % t)
            if not toks:
                self.err("positions: needs instr and/or line")
            self.has_line = "line" in toks
            self.has_addr = "instr" in toks
            m.positions = [t for t in ("instr", "line") if t in toks]
        elif s.startswith("arch: arm"):
            pass
        else:
            self.err("Invalid line '%s'" % s)

    def parse(self, data):
        if "\0" in data:
            self.lineno = data[:data.index("\0")].count("\n") + 1
            self.err("NUL byte in file")
        lines = data.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        for self.lineno, raw in enumerate(lines, 1):
            if raw.endswith("\r"):
                raw = raw[:-1]
            if "\t" in raw:
                self.err("tab character (KCachegrind only accepts spaces "
                         "as separators)")
            if raw == "":
                continue
            c = raw[0]
            if c <= "9":
                if c == "#":
                    continue
                self.cost_line(raw)
            else:
                self.keyword_line(raw)
        self.lineno = len(lines)
        if self.pending_call is not None:
            self.err("file ends after 'calls=' without its call cost line")
        if self.m.events is None:
            self.lineno = None
            self.err("No data found. Skipping file (no 'events:' line)")
        return self.m


class Observer(object):
    """An observer of the parser (see _Parser) that is told nothing: a
    checker overrides the calls it needs."""

    def define(self, space, idx, identity, line):
        pass

    def call_target(self, callee, rest, line):
        pass

    def cost(self, fn, addr, vals, is_call, line):
        pass


def parse_text(text, path=None, observer=None):
    """Parse callgrind text; returns a Model (raises CallgrindError).
    OBSERVER, if given, is told what the parser meets (see _Parser)."""
    p = _Parser()
    p.m.path = path
    p.observer = observer
    return p.parse(text)


def load(path):
    """Load a callgrind file; returns a Model (raises CallgrindError)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise CallgrindError("cannot read %s: %s" % (path, e.strerror))
    text = data.decode("utf-8", "surrogateescape")
    m = parse_text(text, path)
    m._assign_idents()
    return m


def _fmt_table(r):
    out = []
    out.append("file: %s" % r["file_name"])
    out.append("events: %s (showing %s)" % (" ".join(r["events"]),
                                            r["event"]))
    out.append("summary: %s  totals: %s  self sum: %s"
               % (r["summary"], r["totals"], r["self_sum"]))
    for d in r["desc"]:
        out.append("desc: %s" % d)
    if r["duplicate_names"]:
        out.append("note: distinct functions share the names %s; they are "
                   "keyed 'name [file]'" % ", ".join(r["duplicate_names"]))
    if r["kcg_cycle_bug"]:
        out.append("note: KCachegrind 22.12.3 would show the cycles %s "
                   "instead (DFS-root bug)" % r["kcg_cycles"])
    out.append("")
    out.append("%14s %14s %10s %6s  %s" % ("self", "incl", "called", "cycle",
                                           "function (file, object)"))
    fs = sorted(r["functions"].items(),
                key=lambda kv: (-kv[1]["incl"], kv[0]))
    for k, f in fs:
        out.append("%14d %14d %10d %6s  %s (%s, %s)"
                   % (f["self"], f["incl"], f["called"],
                      "" if f["cycle"] is None else f["cycle"], k,
                      f["file"], f["object"]))
    if r["cycle_costs"]:
        out.append("")
        out.append("cycles:")
        for c in r["cycle_costs"]:
            out.append("  <cycle %d> self %d incl %d incoming %d called %d: "
                       "%s" % (c["cycle"], c["self"], c["incl"],
                               c["incoming"], c["called"],
                               ", ".join(c["members"])))
    out.append("")
    out.append("arcs (caller -> callee: count, cost):")
    for a in r["arcs"]:
        out.append("  %s -> %s: %d, %d" % (a["caller"], a["callee"],
                                           a["count"], a["cost"]))
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Parse a callgrind file like KCachegrind 22.12.3 and "
                    "print self/inclusive costs, calls and cycles.")
    ap.add_argument("file", help="callgrind-format file")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--event", help="event to compute (default: the first)")
    ap.add_argument("--no-cycles", action="store_true",
                    help="compute as with KCachegrind's cycle detection off")
    a = ap.parse_args(argv)
    try:
        m = load(a.file)
        r = m.result(a.event, cycles=not a.no_cycles)
    except CallgrindError as e:
        sys.stderr.write("callgrind_model: %s: %s\n" % (a.file, e))
        return 1
    if a.json:
        sys.stdout.write(json.dumps(r, indent=1, sort_keys=True) + "\n")
    else:
        sys.stdout.write(_fmt_table(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
