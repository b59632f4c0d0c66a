import { changeDriverPassword } from "@/server/driver/account";
import { driverRoute } from "@/server/driver/route";

// POST /me/account/password — change the password ({"currentPassword", "password"})
export const POST = driverRoute(
  async ({ session, body }) => {
    await changeDriverPassword(session, await body());
    return { result: "OK" };
  },
  { write: true },
);
