import { z } from "zod";
import { CODEC_16, CODEC_8, CODEC_8_EXTENDED } from "../protocols/teltonika/codecs";
import type { Codec } from "../protocols/teltonika/encode";
import type { DeviceProtocol } from "./run";

// `npm run device`'s options (scripts/device.ts), as parseArgs hands them over: text, or true for
// a flag. Each is checked here, with a message that names the option.

/** Each protocol's port in production (docs/devices.md); the sandbox's is 10,000 above. */
const DEVICE_PORTS: Record<DeviceProtocol, number> = { osmand: 5055, teltonika: 5027, gt06: 5023 };
const SANDBOX_OFFSET = 10_000;

const CODECS: Record<string, Codec> = { "8": CODEC_8, "8E": CODEC_8_EXTENDED, "16": CODEC_16 };

const whole = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `--${name} takes a whole number`)
    .transform(Number)
    .pipe(z.number().min(min, `--${name} takes ${min} to ${max}`).max(max, `--${name} takes ${min} to ${max}`));

const raw = z.object({
  protocol: z.enum(["teltonika", "gt06", "osmand"], "--protocol takes teltonika, gt06 or osmand"),
  id: z
    .string("--id is required: the IMEI (or an app's identifier) a vehicle's deviceId names")
    .min(1, "--id is empty"),
  route: z.string("--route is required: a simulator template id or a .gpx file").min(1, "--route is empty"),
  port: whole("port", 1, 65_535).optional(),
  sandbox: z.boolean().default(false),
  host: z.string().min(1, "--host is empty").default("127.0.0.1"),
  interval: whole("interval", 1, 300).default(5),
  speedup: whole("speedup", 1, 60).default(1),
  seed: whole("seed", 0, 2_147_483_647).optional(),
  codec: z.enum(["8", "8E", "16"], "--codec takes 8, 8E or 16").optional(),
  form: z.enum(["query", "form", "json"], "--form takes query, form or json").optional(),
});

const standInArgs = raw
  .superRefine((v, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: "custom", message });
    // A tracker's IMEI has 15 digits: the gateway's shared port tells Teltonika by them, and GT06
    // carries them as BCD.
    if (v.protocol !== "osmand" && !/^\d{15}$/.test(v.id)) problem(`--id for ${v.protocol} is an IMEI: 15 digits`);
    if (v.codec !== undefined && v.protocol !== "teltonika") problem("--codec is for --protocol teltonika");
    if (v.form !== undefined && v.protocol !== "osmand") problem("--form is for --protocol osmand");
    if (v.interval / v.speedup < 1) problem("--interval / --speedup must be at least 1 second");
  })
  .transform((v) => ({
    ...v,
    port: v.port ?? DEVICE_PORTS[v.protocol] + (v.sandbox ? SANDBOX_OFFSET : 0),
    codec: CODECS[v.codec ?? "8"]!,
    form: v.form ?? "query",
  }));

export type StandInArgs = z.infer<typeof standInArgs>;

/** The options, or an Error listing what is wrong with them. */
export function parseStandInArgs(values: Record<string, string | boolean | undefined>): StandInArgs {
  const parsed = standInArgs.safeParse(values);
  if (parsed.success) return parsed.data;
  throw new Error(parsed.error.issues.map((issue) => issue.message).join("\n"));
}
