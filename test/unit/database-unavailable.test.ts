import { DrizzleQueryError } from "drizzle-orm/errors";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { databaseUnavailable } from "@/db/unavailable";
import { apiErrorOf } from "@/server/http/refusal";
import { errorBody } from "@/server/http/error-body";
import { freePort } from "../helpers/processes";

// Which thrown values are the database out of reach (answered 500 INTERNAL with Retry-After,
// docs/operations.md#a-database-restart) and which are our fault (500 INTERNAL, logged), with the errors
// postgres.js itself throws and drizzle's wrapping of them.

async function refusedConnection(): Promise<unknown> {
  const sql = postgres({ host: "127.0.0.1", port: await freePort(), max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await sql`select 1`;
    throw new Error("nobody should be listening on that port");
  } catch (error) {
    return error;
  } finally {
    await sql.end({ timeout: 0 });
  }
}

describe("databaseUnavailable", () => {
  it("a refused connection, as postgres.js throws it and as drizzle wraps it → its code", async () => {
    const refused = await refusedConnection();
    expect(databaseUnavailable(refused)).toBe("ECONNREFUSED");
    expect(databaseUnavailable(new DrizzleQueryError("select 1", [], refused as Error))).toBe("ECONNREFUSED");
  });

  it("the server going away or starting up, and connection exceptions → their SQLSTATE", () => {
    for (const code of ["57P01", "57P02", "57P03", "53300", "08006", "08P01"]) {
      expect(
        databaseUnavailable(new postgres.PostgresError({ code, message: "terminating connection" } as never)),
      ).toBe(code);
    }
  });

  it("a statement's own failure, or anything else → null", () => {
    expect(
      databaseUnavailable(new postgres.PostgresError({ code: "23505", message: "duplicate key" } as never)),
    ).toBeNull();
    expect(
      databaseUnavailable(new postgres.PostgresError({ code: "57014", message: "canceling statement" } as never)),
    ).toBeNull();
    expect(databaseUnavailable(new Error("boom"))).toBeNull();
    expect(databaseUnavailable("ECONNREFUSED")).toBeNull();
    expect(databaseUnavailable(null)).toBeNull();
  });
});

describe("apiErrorOf: the database out of reach → 500 INTERNAL with Retry-After", () => {
  it("a refused connection is answered 500 INTERNAL with Retry-After, without its details", async () => {
    const answered = apiErrorOf(new DrizzleQueryError("select 1", [], (await refusedConnection()) as Error), "a test");
    expect(answered.status).toBe(500);
    expect(answered.headers).toEqual({ "Retry-After": "2" });
    expect(errorBody(answered).error).toMatchObject({ httpStatus: 500, errorCode: "INTERNAL", fieldErrors: [] });
    expect(errorBody(answered).error.detail).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
  });

  it("any other error is 500 INTERNAL without Retry-After", () => {
    expect(apiErrorOf(new Error("boom"), "a test").status).toBe(500);
    expect(apiErrorOf(new Error("boom"), "a test").headers).toEqual({});
  });
});
