import { randomBytes } from "node:crypto";
import postgres from "postgres";

export type FreshDatabase = { url: string; drop(): Promise<void> };

/**
 * A database of its own on the PostgreSQL server at `serverUrl`, for a test that runs a service
 * (or worker) of its own. drop() removes it with force: a stopped service's pool may not have
 * closed every connection yet.
 */
export async function freshDatabase(serverUrl: string, prefix: string): Promise<FreshDatabase> {
  const name = `wl_${prefix.replace(/\W/g, "_")}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin`create database ${admin(name)}`;
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await again`drop database if exists ${again(name)} with (force)`;
      await again.end();
    },
  };
}
