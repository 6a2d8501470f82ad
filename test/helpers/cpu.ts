/**
 * CPU time of a synchronous call, in milliseconds (user + system time of this process, not wall time: a loaded
 * machine delays a call without charging it CPU). For generous upper bounds in tests that guard against
 * super-linear work; never for speed claims (those are benches).
 */
export function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
