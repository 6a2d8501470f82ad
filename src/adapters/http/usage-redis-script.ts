/**
 * The Redis store's admission as one Lua script for a batch of requests of ONE API key and period (the requests that
 * arrived while the key's previous call was in flight): Redis runs a script to the end before any other command, so the session rules, the quota
 * check, the rate check and the counting of each request form one atomic step however many servers share the
 * database, and the requests of the batch are decided in order, each seeing the counts of those before it. It is
 * `MemoryUsageStore.admit` (with `SessionTracker` and `RateLimiter`) step for step; test/http-redis.test.ts checks
 * both on the same request sequences, one at a time and in batches.
 *
 * KEYS: 1 the key's counts of the period (hash: `billable`, `sessions`, `r:<endpoint>`), 2 the key's rate window
 * (list of the last `perSecond` accepted times, newest first), 3… the sessions of (key, token) named by the batch
 * (hash: `open`, `last`, `started`, `calls`). Every key carries the API key's hash tag, so a batch stays in one Redis
 * Cluster slot.
 * ARGV: 1 monthly quota, 2 per-second cap (0 = none), 3 session idle ms, 4 session memory ms, 5 autocomplete requests
 * per session, 6 session life ms, then five per request:
 * the endpoint (counted in the field `r:<endpoint>`), units without session rules, session mode (0 none, 1 autocomplete, 2 place
 * detail), now (ms), the session's index in KEYS (0 when none).
 * Returns one digit per request, in order: 0 admitted and counted, 1 over the quota, 2 over the rate; a refusal
 * changes nothing.
 *
 * The counts hash is read once and written once per batch (the batch is atomic, so no other command sees it in
 * between); sessions and the rate window are read and written per request, since a request may repeat an earlier
 * one's session or fill the window.
 *
 * Times come from the calling server's clock (as in the memory store): rate windows and idle sessions are only as
 * exact as the servers' clocks agree; quota counts do not depend on clocks.
 */
export const ADMIT_BATCH_SCRIPT = `
local quota = tonumber(ARGV[1])
local per = tonumber(ARGV[2])
local idle = tonumber(ARGV[3])
local maxcalls = tonumber(ARGV[5])
local maxage = tonumber(ARGV[6])
local billable = tonumber(redis.call('HGET', KEYS[1], 'billable') or '0')
local billed = 0
local sessions = 0
local fields = {}
local order = {}
local out = {}
for i = 7, #ARGV, 5 do
  local units = tonumber(ARGV[i + 1])
  local mode = tonumber(ARGV[i + 2])
  local now = tonumber(ARGV[i + 3])
  local skey = KEYS[tonumber(ARGV[i + 4])]
  local starts = 0
  local known = false
  local open = false
  local started = now
  local calls = 0
  local need = units
  if mode > 0 then
    local s = redis.call('HMGET', skey, 'open', 'last', 'started', 'calls')
    if s[2] then
      known = true
      started = tonumber(s[3] or s[2])
      calls = tonumber(s[4] or '0')
      open = s[1] == '1' and now - tonumber(s[2]) <= idle and now - started <= maxage and (mode == 2 or calls < maxcalls)
      if open then units = 0 else units = 1 end
    else
      units = 1
      if mode == 1 then starts = 1 end
    end
    -- A request with a token needs a unit left even inside a session (sessions.ts).
    need = math.max(units, 1)
  end
  local verdict = '0'
  if need > 0 and billable + billed + need > quota then
    verdict = '1'
  elseif per > 0 then
    local oldest = redis.call('LINDEX', KEYS[2], per - 1)
    if oldest and now - tonumber(oldest) < 1000 then
      verdict = '2'
    else
      redis.call('LPUSH', KEYS[2], ARGV[i + 3])
      redis.call('LTRIM', KEYS[2], 0, per - 1)
      redis.call('PEXPIRE', KEYS[2], 2000)
    end
  end
  if verdict == '0' then
    if mode > 0 then
      local still = '1'
      if mode == 2 or (known and not open) then still = '0' end
      redis.call('HSET', skey, 'open', still, 'last', ARGV[i + 3], 'started', started, 'calls', calls + 1)
      redis.call('PEXPIRE', skey, ARGV[4])
    end
    local field = ARGV[i]
    if not fields[field] then
      fields[field] = 0
      order[#order + 1] = field
    end
    fields[field] = fields[field] + 1
    billed = billed + units
    sessions = sessions + starts
  end
  out[#out + 1] = verdict
end
for _, field in ipairs(order) do redis.call('HINCRBY', KEYS[1], 'r:' .. field, fields[field]) end
if billed > 0 then redis.call('HINCRBY', KEYS[1], 'billable', billed) end
if sessions > 0 then redis.call('HINCRBY', KEYS[1], 'sessions', sessions) end
return table.concat(out)
`;
