# bspcheck_gdb.py: gdb sees the p BSP processes of a bsp-check run (docs/debugging.md).
#
# All p processes are coroutines of one thread, so gdb by itself shows only the stack of the
# process that runs and the globals of the process whose copy is in place. This extension reads
# the runtime's debugger view (bspcheck_debug and bspcheck_last_finding, engine/core/world.hpp and
# checker/diagnostics.cpp: plain C data at fixed offsets, so it needs none of the runtime's
# debug information) and adds:
#   info bsp                 every process: pid, state, superstep, last BSPlib call and its line
#   bsp process K            K's stack for bt/frame/up/info locals, and K's globals for print/set var
#   bsp superstep            the superstep, and the process gdb shows
#   bsp break S [K]          stop when process K (or any) first runs in superstep S
#   bsp next-sync            run until the next barrier has passed
#   bsp restart-at S [K]     run the same deterministic replay again from the start up to superstep S
#   bsp findings             the findings raised so far in this run
#   bsp registrations        the registration table (needs the runtime's debug information)
#   bsp queue K              K's message queue, with senders, tags and sizes (the same)
#   bsp finish-call          finish the BSPlib call of the selected program frame (then next works)
#   bsp run-to-finding [N]   run, stopping at the N-th finding (bsp-check debug starts with it)
#   bsp run-to-superstep S [K]  run, stopping where K (or any) first runs in superstep S
# Loaded by gdb's auto-load (libbspcheck.so.*-gdb.py beside the runtime library) or by
# `bsp-check debug`; importing it twice registers nothing twice (it is one Python module).
#
# x86-64 only: a suspended process is unwound from Boost.Context's saved fcontext, whose layout
# (the callee-saved registers, then the resume address) is that of jump_fcontext on x86-64.

import os
import struct

import gdb
import gdb.unwinder

VIEW_FIELDS = ("version", "nprocs", "procs", "proc_size", "off_call", "off_file", "off_line", "off_state",
               "off_ctx", "off_started", "running", "superstep", "break_pending", "break_superstep",
               "break_process", "resume_sp_adjust", "resident", "ranges", "nranges", "ran", "world")
VIEW_VERSION = 1
STATES = {0: "runnable", 1: "in bsp_sync", 2: "in bsp_end", 3: "in a local sync (cBSP/BSPk)", 4: "ended"}
# jump_fcontext (x86-64) leaves these at the saved context pointer: mxcsr/x87 cw, r12, r13, r14, r15,
# rbx, rbp, then the address it resumes at.
FCONTEXT_SLOTS = (("r12", 8), ("r13", 16), ("r14", 24), ("r15", 32), ("rbx", 40), ("rbp", 48), ("rip", 56))
FINDING_LAYOUT = {"count": 0, "superstep": 8, "nprocesses": 16, "processes": 24, "nlocations": 56,
                  "location_process": 64, "location_line": 80, "rule": 96, "message": 160,
                  "location_file": 1184, "location_call": 2208}


def _inferior():
    return gdb.selected_inferior()


def _address_of(name):
    try:
        return int(gdb.parse_and_eval("(unsigned long)&%s" % name))
    except gdb.error:
        return None


def _read_u64s(addr, n):
    return struct.unpack("<%dq" % n, bytes(_inferior().read_memory(addr, 8 * n)))


def _read_int(addr, size=4):
    return int.from_bytes(bytes(_inferior().read_memory(addr, size)), "little", signed=True)


def _read_cstring(addr, limit=1024):
    if not addr:
        return ""
    data = bytes(_inferior().read_memory(addr, limit))
    return data.split(b"\0", 1)[0].decode("utf-8", "replace")


class View:
    """The running World as the runtime describes it (bspcheck_debug)."""

    def __init__(self, fields):
        self.__dict__.update(fields)

    def record(self, pid):
        return self.procs + pid * self.proc_size

    def running_pid(self):
        return _read_int(self.running)

    def superstep_now(self):
        return _read_int(self.superstep)

    def resident_pid(self):
        return _read_int(self.resident) if self.resident else None

    def process(self, pid):
        rec = self.record(pid)
        return {
            "pid": pid,
            "call": _read_cstring(_read_u64s(rec + self.off_call, 1)[0], 64),
            "file": _read_cstring(_read_u64s(rec + self.off_file, 1)[0], 512),
            "line": _read_int(rec + self.off_line),
            "state": _read_int(rec + self.off_state, 1),
            "started": _read_int(rec + self.off_started, 1) != 0,
            "ctx": _read_u64s(rec + self.off_ctx, 1)[0],
        }

    def ranges_list(self):
        out = []
        for i in range(self.nranges):
            lo, size, base, stride = _read_u64s(self.ranges + 32 * i, 4)
            out.append((lo, size, base, stride))
        return out

    def ran_flag(self, pid):
        return _read_int(self.ran + pid, 1) != 0 if self.ran else True


def view():
    """The debugger view, or None when no BSP computation runs (or the runtime is not loaded)."""
    try:
        addr = _address_of("bspcheck_debug")
        if addr is None:
            return None
        values = _read_u64s(addr, len(VIEW_FIELDS))
    except (gdb.error, gdb.MemoryError):
        return None
    v = View(dict(zip(VIEW_FIELDS, values)))
    if v.version != VIEW_VERSION or v.nprocs <= 0:
        return None
    return v


def require_view():
    v = view()
    if v is None:
        raise gdb.GdbError("bsp: no BSP computation runs now (between bsp_begin and bsp_end of a program "
                           "linked with bsp-check's runtime)")
    return v


def _state_text(v, p, running):
    if p["pid"] == running:
        return "running"
    if not p["started"]:
        return "not started"
    return STATES.get(p["state"], "state %d" % p["state"])


def _site_text(p):
    if not p["file"]:
        return "?"
    return "%s:%d" % (p["file"], p["line"])


class Finding:
    def __init__(self):
        base = _address_of("bspcheck_last_finding")
        f = FINDING_LAYOUT

        def i64(off, n=1):
            return _read_u64s(base + off, n)

        self.count = i64(f["count"])[0]
        self.superstep = i64(f["superstep"])[0]
        nprocesses = min(i64(f["nprocesses"])[0], 4)
        self.processes = list(i64(f["processes"], 4)[:nprocesses])
        nloc = min(i64(f["nlocations"])[0], 2)
        procs = i64(f["location_process"], 2)
        lines = i64(f["location_line"], 2)
        self.locations = []
        for k in range(nloc):
            self.locations.append({
                "process": procs[k], "line": lines[k],
                "file": _read_cstring(base + f["location_file"] + 512 * k, 512),
                "call": _read_cstring(base + f["location_call"] + 64 * k, 64)})
        self.rule = _read_cstring(base + f["rule"], 64)
        self.message = _read_cstring(base + f["message"], 1024)

    def text(self):
        out = "[%s] superstep %d, process%s %s: %s" % (
            self.rule, self.superstep, "es" if len(self.processes) != 1 else "",
            ", ".join(str(p) for p in self.processes) or "?", self.message)
        for loc in self.locations:
            out += "\n    at %s:%d (process %d, %s)" % (loc["file"] or "?", loc["line"], loc["process"], loc["call"])
        return out


# ---------------------------------------------------------------------------------------------
# Showing a suspended process: its stack and its globals.


class _FrameId:
    def __init__(self, sp, pc):
        self.sp = sp
        self.pc = pc


class ProcessUnwinder(gdb.unwinder.Unwinder):
    """While a process other than the running one is shown, frame #0 (where the thread really is)
    unwinds into the shown process's saved context: frame #1 is that process's innermost frame,
    at its switch, and gdb's own unwinding goes on from there (bt, up, frame, info locals). No
    register of the thread is changed, so continuing or stepping cannot run the wrong process."""

    def __init__(self):
        super().__init__("bsp-check suspended process")
        self.registers = None  # name -> value of the shown process's saved context
        self.level = 0  # the thread's innermost real frame (inline frames of it come first)

    def __call__(self, pending_frame):
        if self.registers is None or pending_frame.level() != self.level:
            return None
        sp = pending_frame.read_register("rsp")
        pc = pending_frame.read_register("rip")
        info = pending_frame.create_unwind_info(_FrameId(sp, pc))
        u64 = gdb.lookup_type("unsigned long")
        for name, value in self.registers.items():
            info.add_saved_register(name, gdb.Value(value).cast(u64))
        return info


class HideThreadFrame:
    """Leaves the thread's real frame #0 out of bt while another process is shown."""

    def __init__(self):
        self.name = "bsp-check shown process"
        self.priority = 100
        self.enabled = True
        gdb.frame_filters[self.name] = self

    def filter(self, frames):
        if _state.shown is None:
            return frames
        hidden = _state.unwinder.level
        return (f for f in frames if f.inferior_frame().level() > hidden)


class State:
    def __init__(self):
        self.shown = None       # the pid shown, when it is not the running process
        self.swapped = None     # (pid, [(lo, size, live bytes)]) while its globals are in place
        self.findings = []      # texts of the findings raised in this run
        self.stop_at_findings = True
        self.pending_break = None  # (S, K) armed when the World starts
        self.unwinder = ProcessUnwinder()
        gdb.unwinder.register_unwinder(None, self.unwinder, replace=True)
        HideThreadFrame()


_state = None


def _swap_in_globals(v, pid):
    """Puts process pid's copy of the private globals in place (saving the live ones), so that
    print and set var see and write pid's; _swap_out_globals undoes it before the program goes on."""
    inf = _inferior()
    saved = []
    for lo, size, base, stride in v.ranges_list():
        live = bytes(inf.read_memory(lo, size))
        own = bytes(inf.read_memory(base + pid * stride, size))
        inf.write_memory(lo, own)
        saved.append((lo, size, base, stride, live))
    _state.swapped = (pid, saved)


def _swap_out_globals():
    if _state.swapped is None:
        return
    pid, saved = _state.swapped
    inf = _inferior()
    for lo, size, base, stride, live in saved:
        inf.write_memory(base + pid * stride, bytes(inf.read_memory(lo, size)))  # what set var wrote
        inf.write_memory(lo, live)
    _state.swapped = None


def release_shown():
    """Back to the running process: its stack and its globals (before anything resumes)."""
    if _state.shown is None and _state.swapped is None:
        return
    try:
        _swap_out_globals()
    finally:
        _state.shown = None
        _state.unwinder.registers = None
        gdb.invalidate_cached_frames()


def _is_program_frame(frame):
    """A frame of the program's own source: in the main executable, with a line."""
    sal = frame.find_sal()
    if sal.symtab is None or frame.function() is None:
        return False
    objfile = sal.symtab.objfile
    main = gdb.current_progspace().filename
    return objfile is not None and main is not None and os.path.realpath(objfile.filename) == os.path.realpath(main)


def _in_executable(frame):
    try:
        return frame.pc() != 0 and gdb.current_progspace().solib_name(frame.pc()) is None
    except gdb.error:
        return False


def select_program_frame(file=None, line=None, start=None):
    """Selects the frame at file:line (or the first frame of the program's source) from start up."""
    frame = start or gdb.newest_frame()
    first_program = first_executable = None
    while frame is not None:
        if _is_program_frame(frame):
            sal = frame.find_sal()
            if file and line and os.path.basename(sal.symtab.filename) == os.path.basename(file) and sal.line == line:
                frame.select()
                return frame
            if first_program is None:
                first_program = frame
        elif first_executable is None and _in_executable(frame):
            first_executable = frame  # a program without debug information: no line, still its frame
        frame = frame.older()
    chosen = first_program or first_executable
    if chosen is not None:
        chosen.select()
    return chosen


def show_process(pid, quiet=False):
    v = require_view()
    if not 0 <= pid < v.nprocs:
        raise gdb.GdbError("bsp: no process %d (the run has %d)" % (pid, v.nprocs))
    release_shown()
    running = v.running_pid()
    if pid != running:
        p = v.process(pid)
        if not p["started"] or not p["ctx"]:
            raise gdb.GdbError("bsp: process %d has not started: it has no stack yet" % pid)
        if p["state"] == 4:
            raise gdb.GdbError("bsp: process %d has ended: its stack is gone" % pid)
        ctx = p["ctx"]
        regs = {name: _read_u64s(ctx + off, 1)[0] & 0xFFFFFFFFFFFFFFFF for name, off in FCONTEXT_SLOTS}
        regs["rsp"] = ctx + 64 + v.resume_sp_adjust
        level, frame = 0, gdb.newest_frame()
        while frame is not None and frame.type() == gdb.INLINE_FRAME:
            level, frame = level + 1, frame.older()
        _state.unwinder.level = level
        _state.unwinder.registers = regs
        _state.shown = pid
        resident = v.resident_pid()
        if resident is not None and resident != pid:
            if v.ran_flag(pid):
                _swap_in_globals(v, pid)
            elif not quiet:
                print("bsp: process %d has not left its first superstep's start yet: its globals "
                      "are not saved, print shows process %d's" % (pid, resident))
        gdb.invalidate_cached_frames()
        frame = gdb.newest_frame()
        for _ in range(level + 1):  # the process's innermost frame, at its switch
            frame = frame.older()
        select_program_frame(p["file"], p["line"], start=frame) or (frame and frame.select())
    else:
        gdb.invalidate_cached_frames()
        p = v.process(pid)
        select_program_frame(p["file"], p["line"])
    if not quiet:
        p = v.process(pid)
        print("[bsp process %d, superstep %d, %s at %s]" % (pid, v.superstep_now(), p["call"], _site_text(p)))
        gdb.execute("frame", to_string=False)


# Commands that let the program go on: the globals of the process shown go back first.
RESUMING = ("continue", "next", "step", "stepi", "nexti", "finish", "until", "advance", "jump", "signal",
            "run", "start", "starti", "kill", "detach", "call", "return")


def _install_hooks():
    # `define` asks before it replaces a user's hook: not at load time (the docs say they are ours).
    confirm = gdb.parameter("confirm")
    gdb.execute("set confirm off")
    try:
        for cmd in RESUMING:
            try:
                gdb.execute("define hook-%s\nbsp release\nend" % cmd, to_string=True)
            except gdb.error:
                pass
    finally:
        gdb.execute("set confirm %s" % ("on" if confirm else "off"))


# ---------------------------------------------------------------------------------------------
# Breakpoints: the runtime's bspcheck_breakpoint (a superstep), bspcheck_finding_raised (a
# finding) and bspcheck_world_started (arming a break before any process runs).


def arm_break(v, superstep, pid):
    inf = _inferior()
    inf.write_memory(v.break_superstep, struct.pack("<i", superstep))
    inf.write_memory(v.break_process, struct.pack("<i", -1 if pid is None else pid))
    inf.write_memory(v.break_pending, b"\x01")


class SuperstepBreakpoint(gdb.Breakpoint):
    def __init__(self):
        super().__init__("bspcheck_breakpoint", internal=True)
        self.silent = True

    def stop(self):
        _state.stop_reason = "superstep"
        return True


class FindingBreakpoint(gdb.Breakpoint):
    def __init__(self):
        super().__init__("bspcheck_finding_raised", internal=True)
        self.silent = True

    def stop(self):
        try:
            f = Finding()
        except (gdb.error, gdb.MemoryError):
            return False
        _state.findings.append(f.text())
        if _state.skip_findings > 0:  # bsp run-to-finding N: not yet the N-th
            _state.skip_findings -= 1
            return False
        if _state.stop_at_findings:
            _state.stop_reason = "finding"
            _state.finding = f
            return True
        return False


class WorldStartedBreakpoint(gdb.Breakpoint):
    def __init__(self):
        super().__init__("bspcheck_world_started", internal=True)
        self.silent = True

    def stop(self):
        _state.findings = []
        if _state.pending_break is not None:
            v = view()
            if v is not None:
                arm_break(v, *_state.pending_break)
                _state.pending_break = None
        return False


def _on_stop(event):
    reason = getattr(_state, "stop_reason", None)
    _state.stop_reason = None
    if reason is None:
        return
    v = view()
    if v is None:
        return
    if reason == "superstep":
        pid = v.running_pid()
        p = v.process(pid)
        select_program_frame(p["file"], p["line"])
        print("[bsp: process %d enters superstep %d, after %s at %s]" % (pid, v.superstep_now(), p["call"],
                                                                          _site_text(p)))
        gdb.execute("frame", to_string=False)
    elif reason == "finding":
        f = _state.finding
        print("bsp-check finding " + f.text())
        where = f.locations[0] if f.locations else None
        pid = where["process"] if where and where["process"] >= 0 else v.running_pid()
        if pid != v.running_pid():
            try:
                show_process(pid, quiet=True)
            except gdb.GdbError as e:  # e.g. a process that has ended: stay with the running one
                print(str(e))
                pid = v.running_pid()
        if where:
            select_program_frame(where["file"], where["line"], start=gdb.selected_frame())
        others = [k for k in _involved_processes(f) if k != pid]
        if others:
            _list_involved_frames(v, f, pid, others)
        print("[bsp process %d, superstep %d]" % (pid, v.superstep_now()))
        gdb.execute("frame", to_string=False)


def _involved_processes(f):
    """The processes a finding names (its processes, then its locations' ones), each once, in order."""
    seen = []
    for k in list(f.processes) + [loc["process"] for loc in f.locations]:
        if k >= 0 and k not in seen:
            seen.append(k)
    return seen


def _frame_line(frame):
    """gdb's one-line form of a frame ("main () at prog.c:24"), without its level."""
    sal = frame.find_sal()
    name = frame.name() or "??"
    if sal.symtab is not None:
        return "%s () at %s:%d" % (name, sal.symtab.filename, sal.line)
    return "%s () at 0x%x" % (name, frame.pc())


def _list_involved_frames(v, f, pid, others):
    """A finding that involves several processes (raised at the barrier, e.g. put-collision, or
    naming a second process's call) lists where each of the others is in the program, as
    `bsp process K` would show it, then comes back to process pid."""
    print("[bsp: the finding involves process%s %s; each one's frame in the program:]" % (
        "es" if len(others) + 1 > 1 else "", ", ".join(str(k) for k in [pid] + others)))
    for k in [pid] + others:
        p = v.process(k)
        state = _state_text(v, p, v.running_pid())
        try:
            if k != pid:
                show_process(k, quiet=True)
            frame = gdb.selected_frame()
            print("  process %d (%s, superstep %d): %s" % (k, state, v.superstep_now(), _frame_line(frame)))
        except gdb.GdbError:  # ended, or not started: no stack to show
            print("  process %d (%s, superstep %d): no stack to show" % (k, state, v.superstep_now()))
    show_process(pid, quiet=True)
    where = f.locations[0] if f.locations else None
    if where and where["process"] == pid:
        select_program_frame(where["file"], where["line"], start=gdb.selected_frame())


def _on_resume(event):
    # The hooks release the shown process before the program goes on. A resume without them (an
    # inferior function call) runs with the shown process's globals in place: it stays shown, so
    # that `bsp release` or the next resuming command puts the live globals back.
    if _state.swapped is None:
        _state.shown = None
        _state.unwinder.registers = None


# ---------------------------------------------------------------------------------------------
# Commands.


class BspPrefix(gdb.Command):
    """bsp-check's processes: bsp process K, bsp superstep, bsp break S [K], bsp next-sync,
bsp restart-at S, bsp findings (and info bsp). See docs/debugging.md."""

    def __init__(self):
        super().__init__("bsp", gdb.COMMAND_RUNNING, prefix=True)


class InfoBsp(gdb.Command):
    """Every BSP process: pid, state, superstep, last BSPlib call and its source line."""

    def __init__(self):
        super().__init__("info bsp", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        v = require_view()
        running = v.running_pid()
        step = v.superstep_now()
        own = _local_supersteps(v)
        print("  %-4s %-14s %-9s %-14s %s" % ("pid", "state", "superstep", "last call", "at"))
        for pid in range(v.nprocs):
            p = v.process(pid)
            mark = "*" if pid == (_state.shown if _state.shown is not None else running) else " "
            print("%s %-4d %-14s %-9d %-14s %s" % (mark, pid, _state_text(v, p, running),
                                                  own[pid] if own else step, p["call"], _site_text(p)))


class BspProcess(gdb.Command):
    """bsp process K: show process K: bt, frame, up, info locals walk K's stack, and print and set var
reach K's own copy of the globals (until the program goes on). Without K: the process shown."""

    def __init__(self):
        super().__init__("bsp process", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        v = require_view()
        if not arg.strip():
            shown = _state.shown if _state.shown is not None else v.running_pid()
            print("[bsp process %d shown; process %d runs]" % (shown, v.running_pid()))
            return
        try:
            pid = int(gdb.parse_and_eval(arg))
        except (gdb.error, ValueError):
            raise gdb.GdbError("bsp process: not a process number: %s" % arg)
        show_process(pid)


class BspRelease(gdb.Command):
    """Back to the running process (done before the program goes on, by hooks)."""

    def __init__(self):
        super().__init__("bsp release", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        release_shown()


class BspSuperstep(gdb.Command):
    """The superstep, the running process and the process shown."""

    def __init__(self):
        super().__init__("bsp superstep", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        v = require_view()
        shown = _state.shown if _state.shown is not None else v.running_pid()
        print("superstep %d; process %d runs; process %d shown" % (v.superstep_now(), v.running_pid(), shown))


def _parse_break_args(arg, command):
    words = gdb.string_to_argv(arg)
    if not 1 <= len(words) <= 2:
        raise gdb.GdbError("usage: %s S [K]" % command)
    try:
        return int(words[0]), (int(words[1]) if len(words) == 2 else None)
    except ValueError:
        raise gdb.GdbError("usage: %s S [K] (numbers)" % command)


class BspBreak(gdb.Command):
    """bsp break S [K]: stop when process K (or any process) first runs in superstep S. One such
break is armed at a time; before `run`, it is armed when the computation starts."""

    def __init__(self):
        super().__init__("bsp break", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        superstep, pid = _parse_break_args(arg, "bsp break")
        v = view()
        if v is None:
            _state.pending_break = (superstep, pid)
            print("bsp: will stop at superstep %d (%s) once the computation starts" %
                  (superstep, "any process" if pid is None else "process %d" % pid))
            return
        if superstep <= v.superstep_now():
            print("bsp: superstep %d has begun already (bsp restart-at %d goes back to it)" % (superstep, superstep))
        arm_break(v, superstep, pid)


class BspNextSync(gdb.Command):
    """Run until the next barrier has passed: stop in the first process that runs in the next superstep."""

    def __init__(self):
        super().__init__("bsp next-sync", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        v = require_view()
        release_shown()
        arm_break(v, v.superstep_now() + 1, None)
        gdb.execute("continue")


class BspRestartAt(gdb.Command):
    """bsp restart-at S [K]: run the same replay again from the start and stop when process K (or any)
first runs in superstep S: every choice comes from the trace, so it is the same run up to there."""

    def __init__(self):
        super().__init__("bsp restart-at", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        superstep, pid = _parse_break_args(arg, "bsp restart-at")
        release_shown()
        _state.pending_break = (superstep, pid)
        stop_at_findings = _state.stop_at_findings
        _state.stop_at_findings = False  # findings before S are recorded, not stopped at
        confirm = gdb.parameter("confirm")
        try:
            gdb.execute("set confirm off")
            gdb.execute("run")
        finally:
            gdb.execute("set confirm %s" % ("on" if confirm else "off"))
            _state.stop_at_findings = stop_at_findings


# ---------------------------------------------------------------------------------------------
# Registrations and message queues: read through the runtime's own debug information (the
# default RelWithDebInfo build and the installed package have it), since they live in C++
# containers whose layout only the debug information describes.


def _world_value(v):
    try:  # by type lookup: the selected frame may be C's, whose expressions have no `::`
        world = gdb.lookup_type("bspcheck::rt::World")
        return gdb.Value(v.world).cast(world.pointer()).dereference()
    except gdb.error:
        raise gdb.GdbError("bsp: this needs the runtime library's debug information (build bsp-check with "
                           "CMAKE_BUILD_TYPE RelWithDebInfo or Debug)")


def _vector_items(vec):
    """The elements of a libstdc++ std::vector, as gdb values."""
    impl = vec["_M_impl"]
    start, finish = impl["_M_start"], impl["_M_finish"]
    return [(start + i).dereference() for i in range(int(finish - start))]


def _describe_address(addr):
    try:
        block = gdb.execute("info symbol 0x%x" % addr, to_string=True).strip()
    except gdb.error:
        block = ""
    if not block or block.startswith("No symbol"):
        return "0x%x" % addr
    return "0x%x (%s)" % (addr, block.split(" in section")[0])


def _site_of(site):
    file = site["file"]
    return "%s:%d" % (file.string() if int(file) else "?", int(site["line"]))


def _local_supersteps(v):
    """Each process's own superstep when cBSP or BSPk runs (engine/core/local_sync.hpp), else None (the
    global barrier's number applies). Needs the runtime's debug information; None without it."""
    try:
        world = _world_value(v)
        # A std::unique_ptr with the default deleter holds just the pointer.
        local = int(world["local_"].address.cast(gdb.lookup_type("unsigned long").pointer()).dereference())
        if not local:
            return None
        sync = gdb.Value(local).cast(gdb.lookup_type("bspcheck::rt::LocalSync").pointer()).dereference()
        return [int(st["superstep"]) for st in _vector_items(sync["state_"])]
    except (gdb.error, gdb.GdbError, gdb.MemoryError):
        return None


class BspRegistrations(gdb.Command):
    """The registration table: every live slot, oldest first, with each process's address, size and
the line that registered it (what bsp_put, bsp_get and bsp_hpput resolve their destination by)."""

    def __init__(self):
        super().__init__("bsp registrations", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        v = require_view()
        slots = _vector_items(_world_value(v)["regs_"]["slots_"])
        live = [(i, sl) for i, sl in enumerate(slots) if bool(sl["live"])]
        if not live:
            print("no registration is active")
        for i, sl in live:
            print("slot %d:" % i)
            for pid, e in enumerate(_vector_items(sl["entries"])):
                addr = int(e["addr"])
                print("  process %d: %s, %d bytes, registered at %s" % (
                    pid, _describe_address(addr) if addr else "NULL", int(e["size"]), _site_of(e["site"])))


# A queued message's place in the storage is its slot in units of MessageExchange::kAlign
# (engine/core/message_exchange.hpp: Message::offset()).
_MESSAGE_SLOT_BYTES = 16


class BspQueue(gdb.Command):
    """bsp queue K: the messages process K can move in this superstep (bsp_move), in the order it
gets them, with sender, tag and payload size; and those sent to K in this superstep, which it can
read after the next barrier."""

    def __init__(self):
        super().__init__("bsp queue", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        v = require_view()
        try:
            pid = int(gdb.parse_and_eval(arg)) if arg.strip() else v.running_pid()
        except (gdb.error, ValueError):
            raise gdb.GdbError("usage: bsp queue K")
        if not 0 <= pid < v.nprocs:
            raise gdb.GdbError("bsp: no process %d (the run has %d)" % (pid, v.nprocs))
        ex = _world_value(v)["messages_"]
        inbox = _vector_items(ex["inbox_"])[pid]
        queue = _vector_items(inbox["queue"])[int(inbox["head"]):]
        now = ex["now_"]["bytes_"]["data_"]
        print("process %d: %d message(s) to move in superstep %d (tag size %d bytes)" % (
            pid, len(queue), v.superstep_now(), int(ex["tagsize_"])))
        for k, m in enumerate(queue):
            tag_len = int(m["tag_len"])
            offset = int(m["slot"]) * _MESSAGE_SLOT_BYTES
            tag = bytes(_inferior().read_memory(int(now) + offset, tag_len)) if tag_len else b""
            print("  %d. from process %d, tag %s, payload %d bytes" % (
                k + 1, int(m["src"]), tag.hex() or "(none)", int(m["payload_len"])))
        outbox = _vector_items(_vector_items(ex["outbox_"])[pid])
        print("sent to process %d in this superstep (readable after the barrier): %d" % (pid, len(outbox)))
        for m in outbox:
            print("  from process %d, tag %d bytes, payload %d bytes" % (
                int(m["src"]), int(m["tag_len"]), int(m["payload_len"])))


class BspFinishCall(gdb.Command):
    """Let the BSPlib call of the selected program frame finish and stop after it, in the same
process (gdb's finish, from the frame it called). At a finding's stop the innermost frame is the
runtime's, where next and step would go on; from here on they work in the program."""

    def __init__(self):
        super().__init__("bsp finish-call", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        v = require_view()
        if _state.shown is not None and _state.shown != v.running_pid():
            raise gdb.GdbError("bsp finish-call: process %d is shown, process %d runs: only the running "
                               "process can go on (bsp process %d)" % (_state.shown, v.running_pid(),
                                                                         v.running_pid()))
        callee = gdb.selected_frame().newer()
        if callee is None:
            raise gdb.GdbError("bsp finish-call: the selected frame called nothing")
        callee.select()
        gdb.execute("finish")


class BspFindings(gdb.Command):
    """The findings raised so far in this run (from the start, or the last restart)."""

    def __init__(self):
        super().__init__("bsp findings", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        if not _state.findings:
            print("no finding raised so far in this run")
        for i, text in enumerate(_state.findings, 1):
            print("%d. %s" % (i, text))


class BspStartAtFinding(gdb.Command):
    """bsp run-to-finding [N]: run the program and stop at its N-th finding (default the first), what
`bsp-check debug` starts with. The findings before it are recorded (bsp findings)."""

    def __init__(self):
        super().__init__("bsp run-to-finding", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        try:
            n = int(arg) if arg.strip() else 1
        except ValueError:
            raise gdb.GdbError("usage: bsp run-to-finding [N]")
        _state.stop_at_findings = True
        _state.skip_findings = max(n - 1, 0)
        _state.finding = None
        try:
            gdb.execute("run")
        finally:
            _state.skip_findings = 0
        if view() is None or getattr(_state, "finding", None) is None:
            print("bsp: the run raised %s before it ended" % ("no finding" if n == 1 else "fewer than %d findings" % n))
            print("bsp: a finding made by comparing runs (uncontrolled-nondeterminism: a seed that does not run "
                  "the same twice) has no moment in one run to stop at; the run's summary names its location")


class BspRunToSuperstep(gdb.Command):
    """bsp run-to-superstep S [K]: run the program and stop where process K (or any) first runs in
superstep S, recording the findings before it (what `bsp-check debug --superstep` starts with)."""

    def __init__(self):
        super().__init__("bsp run-to-superstep", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        gdb.execute("bsp restart-at " + arg)


def _breakpoints_once_loaded():
    """The runtime's three breakpoints, set once its library is loaded (no pending breakpoints,
    whose messages would come before the program's symbols are read)."""
    if _state.breakpoints is None and _address_of("bspcheck_finding_raised") is not None:
        _state.breakpoints = (SuperstepBreakpoint(), FindingBreakpoint(), WorldStartedBreakpoint())


def _register():
    global _state
    _state = State()
    _state.stop_reason = None
    _state.finding = None
    _state.skip_findings = 0
    BspPrefix()
    InfoBsp()
    BspProcess()
    BspRelease()
    BspSuperstep()
    BspBreak()
    BspNextSync()
    BspRestartAt()
    BspFindings()
    BspRegistrations()
    BspQueue()
    BspFinishCall()
    BspStartAtFinding()
    BspRunToSuperstep()
    _state.breakpoints = None
    _breakpoints_once_loaded()
    gdb.events.new_objfile.connect(lambda event: _breakpoints_once_loaded())
    gdb.events.stop.connect(_on_stop)
    gdb.events.cont.connect(_on_resume)
    _install_hooks()


_register()
