import { useMemo, type ComponentProps } from "react";
import { Field } from "./field";

type Props = Omit<ComponentProps<typeof Field>, "name" | "label" | "list" | "autoComplete"> & { listId: string };

// The account's time zone (registration and the driver's account form): typed, with the browser's
// IANA zones offered as suggestions (none where Intl.supportedValuesOf is missing).
export function TimeZoneField({ listId, ...field }: Props) {
  const timeZones = useMemo(
    () => (typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []),
    [],
  );
  return (
    <>
      <Field name="timeZone" label="Time zone" list={listId} autoComplete="off" {...field} />
      <datalist id={listId}>
        {timeZones.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
    </>
  );
}
