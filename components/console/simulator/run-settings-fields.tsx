import { FieldFrame } from "@/components/ui/field";
import { aria, control, FieldMessage } from "./controls";

/** How the run goes: its pace, its data and the battery it reports. */
export type RunSettings = {
  mode: "realtime" | "instant";
  speedUp: string;
  collectionPeriod: string;
  seed: string;
  lowBattery: boolean;
};

type Props = {
  settings: RunSettings;
  onSettings: (change: Partial<RunSettings>) => void;
  errors: Record<string, string>;
};

// The start form's run settings; a speed-up only in real time (a backfill is written at once).
export function RunSettingsFields({ settings, onSettings, errors }: Props) {
  const { mode, speedUp, collectionPeriod, seed, lowBattery } = settings;
  return (
    <>
      <fieldset className="flex min-w-0 flex-col gap-2">
        <legend className="text-sm font-medium text-slate-800">Mode</legend>
        <div className="flex flex-wrap gap-x-4">
          <label className="flex min-h-11 items-center gap-2 text-sm">
            <input
              type="radio"
              name="mode"
              value="realtime"
              checked={mode === "realtime"}
              onChange={() => onSettings({ mode: "realtime" })}
              className="h-5 w-5"
            />{" "}
            Real time
          </label>
          <label className="flex min-h-11 items-center gap-2 text-sm">
            <input
              type="radio"
              name="mode"
              value="instant"
              checked={mode === "instant"}
              onChange={() => onSettings({ mode: "instant" })}
              className="h-5 w-5"
            />{" "}
            Instant backfill (a past trip)
          </label>
        </div>
        <FieldMessage id="sim-mode" error={errors.mode} />
      </fieldset>
      <div className="grid grid-cols-2 gap-2">
        {mode === "realtime" ? (
          <FieldFrame id="sim-speed-up" label="Speed-up (1–60×)" error={errors.speedUp}>
            <input
              {...aria("sim-speed-up", errors.speedUp)}
              className={control(errors.speedUp)}
              inputMode="numeric"
              value={speedUp}
              onChange={(e) => onSettings({ speedUp: e.target.value })}
            />
          </FieldFrame>
        ) : null}
        <FieldFrame id="sim-period" label="Collection period (s)" error={errors.collectionPeriod}>
          <input
            {...aria("sim-period", errors.collectionPeriod)}
            className={control(errors.collectionPeriod)}
            inputMode="numeric"
            value={collectionPeriod}
            onChange={(e) => onSettings({ collectionPeriod: e.target.value })}
          />
        </FieldFrame>
        <FieldFrame id="sim-seed" label="Seed (optional)" error={errors.seed}>
          <input
            {...aria("sim-seed", errors.seed)}
            className={control(errors.seed)}
            inputMode="numeric"
            value={seed}
            onChange={(e) => onSettings({ seed: e.target.value })}
          />
        </FieldFrame>
      </div>
      <label className="flex min-h-11 items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={lowBattery}
          onChange={(e) => onSettings({ lowBattery: e.target.checked })}
          className="h-5 w-5"
        />{" "}
        Low battery (11.3–11.9 V)
      </label>
    </>
  );
}
