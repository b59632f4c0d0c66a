import { changeDriverPassword } from "@/server/surfaces/driver/account";
import { withDriver, otherMethods } from "@/server/http/with-driver";

// POST /me/account/password — change the password ({"currentPassword", "password"})
export const POST = withDriver(
  async ({ session, body }) => {
    await changeDriverPassword(session, await body());
    return { result: "OK" };
  },
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
