/*
 * compaction_holds.pml: the compaction-hold protocol between the maintenance
 * runtime (which owns and publishes an arrangement) and the interactive
 * runtime (which imports it and reads it). See README.md beside this file for what each process
 * stands for in the code and how to run the checks (check.sh).
 *
 * One index, one worker per runtime (imports are pairwise per worker index,
 * so every worker pair runs its own copy of this protocol), one trace (the
 * oks and errs traces receive the same commands and holds). Timestamps are
 * 0..NT-1; the published upper runs 0..NT.
 *
 * Variants (-D macros); the design is the default:
 *   MAINT_ONLY         AllowCompaction goes to maintenance only, which then
 *                      also advances the peer hold (nothing else could):
 *                      violates safety.
 *   NO_STANDING_HOLD   AllowCompaction is broadcast, but the interactive
 *                      runtime keeps it to itself and holds nothing on the
 *                      publisher between reads: violates safety.
 *   LATE_HOLD          the interactive runtime registers its standing hold
 *                      when it processes CreateDataflow instead of it being
 *                      registered when the command is sent: violates safety.
 *   FROZEN_PEER_HOLD   compaction to maintenance only, and the peer hold is
 *                      never advanced: safe, but pins the arrangement
 *                      (violates ltl no_pin).
 *   NO_PUBLISHER_WAKE  the interactive runtime advances or releases holds
 *                      without waking the publisher: violates ltl no_pin.
 */

#ifndef NT
#define NT 3 /* timestamps 0..NT-1 */
#endif
#ifndef NREADS
#define NREADS 2 /* reads (peeks or one-shot dataflows) the controller issues */
#endif
#define INF 255

mtype = { CREATE, PEEK, ALLOW };

/* The two command streams; each runtime applies its commands in order. */
chan maint_cmds = [NREADS + NT + 1] of { mtype, byte };
chan inter_cmds = [NREADS + NT + 1] of { mtype, byte };

/* The publication point (TracePublication): the published snapshot. */
byte pub_upper = 0;
byte pub_since = 0;

/* The holds on the publication; the publisher compacts to their least. */
bool maint_live = false; /* maintenance's export hold (Worker::Export) */
byte maint_hold = 0;
bool peer_live = false;  /* the interactive runtime's standing hold */
byte peer_hold = 0;
bool read_live[NREADS];  /* one hold per read queued or running on interactive */
byte read_t[NREADS];

/* Wakeups: the publisher marks the id dirty and wakes interactive after a
   frontier advance; interactive wakes the publisher after moving a hold. */
bool inter_dirty = false;
bool maint_woken = false;

/* For the properties. */
byte allowed = 0;        /* the controller's last AllowCompaction */
byte reads_issued = 0;
byte reads_answered = 0;
bool ctrl_done = false;

inline max_into(x, v) { if :: (v) > x -> x = (v) :: else -> skip fi }

/* The least hold, as TracePublication::least_hold(); INF when none. Used
   inside a d_step (the publication's mutex). */
inline least_into(out) {
  out = INF;
  if :: maint_live && maint_hold < out -> out = maint_hold :: else -> skip fi;
  if :: peer_live && peer_hold < out -> out = peer_hold :: else -> skip fi;
  i = 0;
  do
  :: i < NREADS ->
     if :: read_live[i] && read_t[i] < out -> out = read_t[i] :: else -> skip fi;
     i++
  :: else -> break
  od;
  i = 0
}

/* Trace::apply_holds() then Trace::publish(): two critical sections, so a
   hold may be taken or moved between them. */
inline compact_and_publish(advance) {
  d_step { least_into(target) };
  d_step {
    if :: target != INF -> max_into(pub_since, target) :: else -> skip fi;
    pub_upper = pub_upper + advance;
    /* The debug assertion (compute/arrangement/trace_publication.hpp), checked where the snapshot is
       published: its since never passes a live hold. */
#ifndef READER_ASSERTS_ONLY
    least_into(target);
    assert(target == INF || pub_since <= target);
#endif
    target = 0
  }
}

/* The coordinator through the compute controller and its multiplexer:
   CreateDataflow (as_of 0) to both runtimes, reads to interactive, and
   AllowCompaction broadcast to both. AllowCompaction(s) promises that no
   read at t < s is sent afterwards; reads sent before it remain valid, so
   the controller may allow compaction past a read it has just sent. */
active proctype Controller() {
  byte t;
  atomic {
    /* Runtime::send(CreateDataflow): the registry registers the peer hold
       at the as_of before either runtime sees the command. */
#if !defined(NO_STANDING_HOLD) && !defined(LATE_HOLD)
    peer_live = true; peer_hold = 0;
#endif
    maint_cmds!CREATE,0;
    inter_cmds!CREATE,0
  }
  do
  :: atomic {
       reads_issued < NREADS ->
       select (t : allowed .. NT - 1);
       inter_cmds!PEEK,t;
       reads_issued++;
       t = 0
     }
  :: atomic {
       allowed < NT - 1 ->
       select (t : allowed + 1 .. NT - 1);
       allowed = t;
       maint_cmds!ALLOW,allowed;
#if !defined(MAINT_ONLY) && !defined(FROZEN_PEER_HOLD)
       inter_cmds!ALLOW,allowed;
#endif
       t = 0
     }
  :: break
  od;
  ctrl_done = true
}

/* The maintenance worker that owns the arrangement: applies its commands in
   order, steps (its upper advances as input arrives, up to NT), and after
   every command or step compacts to the least hold and publishes; after a
   step that advanced the upper it marks the id dirty for interactive. */
active proctype Maintenance() {
  mtype kind;
  byte arg, target, i;
end_idle:
  do
  :: atomic {
       maint_cmds?kind,arg ->
       if
       :: kind == CREATE -> maint_live = true; maint_hold = arg
       :: kind == ALLOW ->
          max_into(maint_hold, arg);
#ifdef MAINT_ONLY
          max_into(peer_hold, arg);
#endif
          skip
       fi;
       kind = CREATE; arg = 0
     };
     compact_and_publish(0)
  :: maint_live && pub_upper < NT ->
     compact_and_publish(1);
     inter_dirty = true
  :: atomic { maint_live && maint_woken -> maint_woken = false };
     compact_and_publish(0)
  od
}

/* The interactive worker: imports the published arrangement, parks a read
   at t until upper > t (holding t meanwhile), reads, and applies
   AllowCompaction as the standing hold that bounds the publisher. It looks
   at its parked reads only when a read arrives or the publisher marked the
   id dirty (no polling), so a lost wakeup shows as a read never answered. */
active proctype Interactive() {
  mtype kind;
  byte arg, slot = 0, i;
  byte local_since = 0; /* the compaction this runtime has been told of */
  bool examine = false; /* re-examine the parked reads */
end_idle:
  do
  :: atomic {
       inter_cmds?kind,arg ->
       if
       :: kind == CREATE ->
#ifdef LATE_HOLD
          peer_live = true; peer_hold = arg;
#endif
          skip
       :: kind == PEEK ->
          /* Rejected below the compaction this runtime knows of (never,
             for a controller that keeps its promise). */
          assert(arg >= local_since);
          /* The read takes its own hold at t (a TraceHandle moved to t);
             the publisher has compacted past t already: compaction error. */
          assert(pub_since <= arg);
          read_t[slot] = arg; read_live[slot] = true;
          slot++;
          examine = true
       :: kind == ALLOW ->
          local_since = arg;
#ifndef NO_STANDING_HOLD
          /* Reads queued before this command already hold their own
             times, so the standing hold may move at once. */
          max_into(peer_hold, arg);
#ifndef NO_PUBLISHER_WAKE
          maint_woken = true;
#endif
#endif
          skip
       fi;
       kind = CREATE; arg = 0
     }
  :: atomic { inter_dirty -> inter_dirty = false; examine = true }
  :: atomic {
       examine ->
       i = 0;
       do
       :: i < NREADS && !(read_live[i] && read_t[i] < pub_upper) -> i++
       :: else -> break
       od;
       if
       :: i == NREADS -> examine = false
       :: else ->
          /* TraceHandle::snapshot(): upper and since copied together.
             Safety: the read is exact, no compaction error. */
          assert(pub_upper > read_t[i]);
          assert(pub_since <= read_t[i]);
          read_live[i] = false; read_t[i] = 0; reads_answered++;
#ifndef NO_PUBLISHER_WAKE
          maint_woken = true;
#endif
          skip
       fi;
       i = 0
     }
  od
}

/* Liveness (checked with weak fairness): every read completes, and once the
   controller is done and the reads are answered the publisher's since
   reaches the last AllowCompaction (no permanent pin). */
ltl reads_complete { [] ((reads_issued > reads_answered) -> <> (reads_issued == reads_answered)) }
ltl no_pin { [] (ctrl_done -> <> (pub_since == allowed)) }
