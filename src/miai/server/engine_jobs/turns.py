"""Review work taken in turns by user: the one rule, here twice, for the in-process queue (`Turns`) and
for the Redis queue (the scripts, run by `redis_queue.py` and `worker.py`).

Each user (the review's `requested_by`; 0 when the account is gone) has a queue of review parts, and the
users with work waiting take one part each in turn (round-robin): engine time is shared by user, not by
review, and counted in positions (a part is `reviewing.PART` positions), so a user who queued many long
reviews holds the engine no longer per round than one who queued a short one. A user joins the turns at
the back when work of theirs arrives while none of theirs waits, and leaves them when their queue is
empty. A part that hands on its review's next part puts it at the front of its user's queue (a user's
reviews finish one after the other), the user joining the turns again if they had left them.
"""

from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

Work = TypeVar("Work")


class Turns(Generic[Work]):
    """The in-process queue of review parts, by user."""

    def __init__(self) -> None:
        self._queues: dict[int, deque[Work]] = {}
        self._order: deque[int] = deque()

    def add(self, user: int, work: Work) -> None:
        """New work, after the user's other work."""
        self._queue(user).append(work)

    def again(self, user: int, work: Work) -> None:
        """The next part of the work the user's last turn ran: first of theirs, at their next turn."""
        self._queue(user).appendleft(work)

    def take(self) -> tuple[int, Work] | None:
        """The next user's next work, or None when nothing waits."""
        if not self._order:
            return None
        user = self._order.popleft()
        queue = self._queues[user]
        work = queue.popleft()
        if queue:
            self._order.append(user)
        else:
            del self._queues[user]
        return user, work

    def __len__(self) -> int:
        return sum(len(queue) for queue in self._queues.values())

    def _queue(self, user: int) -> deque[Work]:
        queue = self._queues.get(user)
        if queue is None:
            queue = self._queues[user] = deque()
            self._order.append(user)
        return queue


# On Redis: KEYS[1] the user's queue (a list of jobs as JSON), KEYS[2] the turns (a list of user ids);
# ARGV[1] the job, ARGV[2] the user. `ADD` pushes at the back of the queue, `AGAIN` at the front. A user
# joins the turns unless there already (LPOS rather than "the queue was empty", so that a queue whose turn
# was lost, a key deleted by hand or evicted, gets one again with its next job).
_JOIN = """
if not redis.call('LPOS', KEYS[2], ARGV[2]) then
  redis.call('RPUSH', KEYS[2], ARGV[2])
end
return 1
"""
ADD = "redis.call('RPUSH', KEYS[1], ARGV[1])\n" + _JOIN
AGAIN = "redis.call('LPUSH', KEYS[1], ARGV[1])\n" + _JOIN
# The same as ADD once per marker's life: KEYS[3] the marker, ARGV[3] its seconds (the sweep's resubmission).
_ONCE = """
if not redis.call('SET', KEYS[3], '1', 'NX', 'EX', ARGV[3]) then
  return 0
end
"""
ADD_ONCE = _ONCE + ADD
# The next user's next job onto the stream workers take review parts from (KEYS[2]), whose consumer group
# keeps it pending (taken over if its worker dies); KEYS[1] the turns, ARGV[1] the prefix of the users'
# queues (the user's queue is named from the turns, so it cannot be a declared key: no Redis Cluster).
# ARGV[2] the stream's length cap. 1 when a job was added, 0 when nothing waits.
TAKE = """
local user = redis.call('LPOP', KEYS[1])
if not user then
  return 0
end
local queue = ARGV[1] .. user
local job = redis.call('LPOP', queue)
if redis.call('LLEN', queue) > 0 and not redis.call('LPOS', KEYS[1], user) then
  redis.call('RPUSH', KEYS[1], user)
end
if not job then
  return 0
end
local fields = {}
for name, value in pairs(cjson.decode(job)) do
  fields[#fields + 1] = name
  fields[#fields + 1] = tostring(value)
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', unpack(fields))
return 1
"""
