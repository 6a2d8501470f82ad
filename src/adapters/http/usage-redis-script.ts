/**
 * The Redis store's admission as one Lua script: Redis runs a script to the end before any other command, so the
 * session rules, the quota check, the rate check and the counting of one request form one atomic step however many
 * servers share the database. It is `MemoryUsageStore.admit` (with `SessionTracker` and `RateLimiter`) step for
 * step; test/http-redis.test.ts checks both on the same request sequences.
 *
 * KEYS: 1 the key's counts of the period (hash: `billable`, `sessions`, `r:<endpoint>`), 2 the key's rate window
 * (list of the last `perSecond` accepted times, newest first), 3 the session of (key, token) (hash: `open`, `last`).
 * ARGV: 1 the endpoint's field `r:<endpoint>`, 2 units without session rules, 3 monthly quota, 4 per-second cap (0 =
 * none), 5 session mode (0 none, 1 autocomplete, 2 place detail), 6 now (ms), 7 session idle ms, 8 session memory ms.
 * Returns 0 admitted and counted, 1 over the quota, 2 over the rate; a refusal changes nothing.
 *
 * Times come from the calling server's clock (as in the memory store): rate windows and idle sessions are only as
 * exact as the servers' clocks agree; quota counts do not depend on clocks.
 */
export const ADMIT_SCRIPT = `
local units = tonumber(ARGV[2])
local mode = tonumber(ARGV[5])
local now = tonumber(ARGV[6])
local starts = 0
local known = false
local open = false
if mode > 0 then
  local s = redis.call('HMGET', KEYS[3], 'open', 'last')
  if s[2] then
    known = true
    open = s[1] == '1' and now - tonumber(s[2]) <= tonumber(ARGV[7])
    if open then units = 0 else units = 1 end
  else
    units = 1
    if mode == 1 then starts = 1 end
  end
end
if units > 0 and tonumber(redis.call('HGET', KEYS[1], 'billable') or '0') + units > tonumber(ARGV[3]) then
  return 1
end
local per = tonumber(ARGV[4])
if per > 0 then
  local oldest = redis.call('LINDEX', KEYS[2], per - 1)
  if oldest and now - tonumber(oldest) < 1000 then return 2 end
  redis.call('LPUSH', KEYS[2], ARGV[6])
  redis.call('LTRIM', KEYS[2], 0, per - 1)
  redis.call('PEXPIRE', KEYS[2], 2000)
end
if mode > 0 then
  local still = '1'
  if mode == 2 or (known and not open) then still = '0' end
  redis.call('HSET', KEYS[3], 'open', still, 'last', ARGV[6])
  redis.call('PEXPIRE', KEYS[3], ARGV[8])
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
if units > 0 then redis.call('HINCRBY', KEYS[1], 'billable', units) end
if starts == 1 then redis.call('HINCRBY', KEYS[1], 'sessions', 1) end
return 0
`;
