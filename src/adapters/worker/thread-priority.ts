import { nodeBuiltin } from '../../node-builtin.js';

/**
 * Lowers the CPU priority of the calling thread only (not its process) by `steps` nice levels, at most to 19, so that
 * when the cores are short the kernel runs the process's other threads first. Linux only: there a thread is a task
 * with its own id (read from /proc/thread-self) and setpriority on that id changes that thread alone; raising a nice
 * value needs no privilege. Returns the thread's nice value after the change, or null where this cannot be done
 * (another OS, no /proc, a refused call): the thread then keeps the process's priority, which is only slower for
 * light calls under load, never wrong.
 */
export function lowerThreadPriority(steps: number): number | null {
  const fs = nodeBuiltin('node:fs');
  const os = nodeBuiltin('node:os');
  if (!fs || !os || steps <= 0) return null;
  try {
    const tid = Number(/\/task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'))?.[1]);
    if (!Number.isInteger(tid) || tid <= 0) return null;
    const nice = Math.min(19, os.getPriority(tid) + steps);
    os.setPriority(tid, nice);
    return os.getPriority(tid);
  } catch {
    return null;
  }
}
