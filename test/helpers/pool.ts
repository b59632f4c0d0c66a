import { inject } from "vitest";
import type { PoolName, SharedApp, TestApp } from "@/test/integration/global-setup";
import { uniqueName } from "./api";
import { createPartnerApp } from "./fixtures";
import { startHttpsReceiverFor, type HttpsReceiver } from "./https-receiver";

// The pool (test/integration/global-setup.ts): shared apps beside the main one, each configured one
// way, for files that need that setting and not an app of their own. A file brings its own partner
// app and receiver, so its notifications and deliveries are its own; on a pool app it does only what
// it would do on the main one: no restart, no count of every row, no global setting changed.

/** The pool's app configured as `name` says (`worker`: the delivery worker on). */
export const poolApp = (name: PoolName): SharedApp => inject("pool")[name];

export type PartnerOnPool = { app: SharedApp; receiver: HttpsReceiver; partnerApp: TestApp; stop(): Promise<void> };

/**
 * On the pool's `name` app, what a delivery test needs: a receiver the app trusts and a partner app
 * of the file's own (made with the operator CLI). stop() closes the receiver; the app runs on.
 */
export async function partnerOnPool(name: PoolName, label: string): Promise<PartnerOnPool> {
  const app = poolApp(name);
  const receiver = await startHttpsReceiverFor(app);
  try {
    const partnerApp = await createPartnerApp(uniqueName(label), { on: app });
    return { app, receiver, partnerApp, stop: () => receiver.close() };
  } catch (error) {
    await receiver.close();
    throw error;
  }
}
