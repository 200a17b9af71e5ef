// The Redis alternative to the PostgreSQL window store (docs/adr/0033-windows-in-postgresql.md "Options"): the
// same take as one Lua script (Redis runs a script alone, so it is all or nothing), a running total per window
// in a hash and its events in a sorted set scored by Redis's own clock in microseconds. Measured with
// `appendonly yes` and `appendfsync always`, so an answered take survives a restart as a committed row does.
import type Redis from 'ioredis';
import type { TakeNeed, TakeResult } from './pg-store';

// KEYS: per window, its total (hash) then its events (sorted set). ARGV: the consultation id, then per window
// its length in microseconds, the amount and the max. Returns {taken (1/0), used_before...} as strings.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local n = #KEYS / 2
local used = {}
local fits = 1
for i = 1, n do
  local total, events = KEYS[2 * i - 1], KEYS[2 * i]
  local cut = now - tonumber(ARGV[3 * i - 1])
  local u = tonumber(redis.call('HGET', total, 'used') or '0')
  local gone = redis.call('ZRANGEBYSCORE', events, '-inf', cut)
  if #gone > 0 then
    for _, m in ipairs(gone) do u = u - tonumber(string.match(m, '|(.*)$')) end
    redis.call('ZREMRANGEBYSCORE', events, '-inf', cut)
    redis.call('HSET', total, 'used', tostring(u))
  end
  used[i] = u
  if u + tonumber(ARGV[3 * i]) > tonumber(ARGV[3 * i + 1]) then fits = 0 end
end
local out = { fits }
for i = 1, n do
  if fits == 1 then
    redis.call('ZADD', KEYS[2 * i], now, ARGV[1] .. '|' .. ARGV[3 * i])
    redis.call('HSET', KEYS[2 * i - 1], 'used', tostring(used[i] + tonumber(ARGV[3 * i])))
  end
  out[i + 1] = tostring(used[i])
end
return out
`;

type WithTake = Redis & { windowTake(...args: Array<string | number>): Promise<Array<number | string>> };

export function defineTake(redis: Redis): WithTake {
  redis.defineCommand('windowTake', { lua: TAKE });
  return redis as WithTake;
}

/** One take through the script. Keys carry the tenant; a cluster would need them in one hash slot (`{tenant}`). */
export async function redisTake(redis: WithTake, tenant: string, consultation: string, needs: TakeNeed[]): Promise<TakeResult> {
  const keys = needs.flatMap((n) => [`w:{${tenant}}:${n.key}:t`, `w:{${tenant}}:${n.key}:e`]);
  const argv = needs.flatMap((n) => [n.windowMs * 1000, n.amount, n.max]);
  const r = await redis.windowTake(keys.length, ...keys, consultation, ...argv);
  return { taken: Number(r[0]) === 1, usedBefore: r.slice(1).map(Number) };
}
