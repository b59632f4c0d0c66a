// @module-tag embedded
import { describe, expect, inject, it } from "vitest";
import { connect } from "@/db/client";

// A process's pool starts empty and, under load, is handed many statements at once before any of
// its connections is ready: a cluster worker forked into traffic, a pool reopened after a restart.
// postgres.js 4.2 left a connection paused for good when it was given a statement naming a type it
// did not know yet (our environment enum) while its eager type lookup ran; every statement queued on
// that connection then waited forever (db/client.ts). The service's own pool settings must answer
// every first statement of a fresh pool, round after round.

const ROUNDS = 10;
const AT_ONCE = 32;
const HUNG_AFTER_MS = 10_000;

describe("a fresh pool with the service's settings", () => {
  it("answers every statement it is handed at once before its connections are ready", async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { sql } = connect(inject("databaseUrl"), inject("embedded"));
      try {
        const sent = Array.from(
          { length: AT_ONCE },
          (_, i) => sql<{ n: number }[]>`
            select count(*)::int as n from vehicles where environment = ${i % 2 === 0 ? "production" : "sandbox"}`,
        );
        let timer: NodeJS.Timeout | undefined;
        const hung = new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve(`round ${round}: hung`), HUNG_AFTER_MS);
        });
        outcomes.push(
          await Promise.race([Promise.all(sent).then((rows) => `answered ${rows.length}`), hung]).finally(() =>
            clearTimeout(timer),
          ),
        );
      } finally {
        await sql.end({ timeout: 1 });
      }
    }
    expect(outcomes).toEqual(Array.from({ length: ROUNDS }, () => `answered ${AT_ONCE}`));
  }, 180_000);
});
