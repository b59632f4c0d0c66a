import type { Environment } from "@/db/schema";
import { stillWorking } from "@/server/api-auth/bearer";
import { processPhase } from "@/server/platform/fleet/process-state";
import { childLogger } from "@/server/platform/log";

// An open stream lives on after the request that opened it was admitted, so its token is asked
// again: every TOKEN_CHECK_MS this process asks, in one statement per environment, which of the
// distinct tokens among its open streams still work (server/api-auth/bearer.ts's stillWorking: the
// API's own decision, without metering: a re-check is not a request), and ends the streams of a
// token that no longer works (revoked, expired, its grant gone). With checks 2 s apart a stream
// ends within about 2 s of the revocation's commit, inside the 5 s the contract allows. A thousand
// streams cost one statement per round whether they hold one token or a thousand (an app's
// mobile clients, one per driver: a statement per token was 500 a second, and it was what kept
// the service's core busy under bench:live). A draining process ends its streams too, at the next
// round: their clients reconnect to another process, from their Last-Event-ID.

const TOKEN_CHECK_MS = 2000;
/** Tokens asked about in one statement. */
const CHECK_BATCH = 1000;

const log = childLogger({ component: "stream-token-watch" });

type Watched = { authorization: string; environment: Environment; ends: Set<() => void> };

const key = Symbol.for("wayline.stream-token-watch");
type State = { tokens: Map<string, Watched>; timer: NodeJS.Timeout | null };
type WithState = typeof globalThis & { [key]?: State };

function state(): State {
  const g = globalThis as WithState;
  return (g[key] ??= { tokens: new Map(), timer: null });
}

/** Calls `end` once the token stops working (or the process drains); answers the function that stops watching. */
export function watchStreamToken(authorization: string, environment: Environment, end: () => void): () => void {
  const s = state();
  const id = `${environment} ${authorization}`;
  const watched = s.tokens.get(id) ?? { authorization, environment, ends: new Set() };
  watched.ends.add(end);
  s.tokens.set(id, watched);
  s.timer ??= setInterval(() => void checkRound(), TOKEN_CHECK_MS);
  return () => {
    watched.ends.delete(end);
    if (watched.ends.size === 0 && s.tokens.get(id) === watched) s.tokens.delete(id);
    if (s.tokens.size === 0 && s.timer) {
      clearInterval(s.timer);
      s.timer = null;
    }
  };
}

let checking = false;

async function checkRound(): Promise<void> {
  if (checking) return;
  checking = true;
  try {
    const s = state();
    const all = [...s.tokens.values()];
    const ending = processPhase() === "draining" ? all : await notWorking(all);
    for (const watched of ending) for (const end of [...watched.ends]) end();
  } finally {
    checking = false;
  }
}

/** The watched tokens that no longer work; none when the database is out of reach. */
async function notWorking(all: Watched[]): Promise<Watched[]> {
  const gone: Watched[] = [];
  for (const environment of new Set(all.map((w) => w.environment))) {
    const here = all.filter((w) => w.environment === environment);
    for (let i = 0; i < here.length; i += CHECK_BATCH) {
      const batch = here.slice(i, i + CHECK_BATCH);
      try {
        const working = await stillWorking(
          batch.map((w) => w.authorization),
          environment,
        );
        gone.push(...batch.filter((w) => !working.has(w.authorization)));
      } catch (error) {
        // The database out of reach: the streams cannot read either; keep them and ask again.
        log.warn({ err: error }, "re-checking the streams' tokens failed");
      }
    }
  }
  return gone;
}
