import { deleteDriverAccount, getDriverAccount, updateDriverAccount } from "@/server/surfaces/driver/account";
import { withDriver, otherMethods } from "@/server/http/with-driver";

// GET /me/account — the signed-in driver's account
export const GET = withDriver(async ({ session }) => ({ account: await getDriverAccount(session) }), { write: false });

// POST /me/account — edit the account fields (the API's field errors)
export const POST = withDriver(
  async ({ session, body }) => ({ account: await updateDriverAccount(session, await body()) }),
  { write: true },
);

// DELETE /me/account — delete the account permanently ({"confirmUsername"} must be its username)
export const DELETE = withDriver(
  async ({ session, body }) => {
    await deleteDriverAccount(session, await body());
    return { result: "OK" };
  },
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { PUT, PATCH, OPTIONS } = otherMethods({ GET, POST, DELETE });
