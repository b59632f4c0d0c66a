"use client";

import { useState, type ChangeEvent } from "react";
import { MAX_RADIUS_M, MAX_VERTICES, MIN_RADIUS_M } from "@/common/places/limits";
import type { PlaceOut, PlaceShape } from "@/server/places/schemas";
import { ConfirmDialog, destructiveButton } from "./confirm-dialog";
import { FormMessage } from "./form-message";
import { describeShape, PlaceNameDialog } from "./place-name-dialog";
import type { Places } from "./use-places";

// The places beside the map: each with Rename and Delete, the name dialog for a shape just drawn,
// and the GeoJSON and KML files in and out (docs/driver-site.md#places).

const small = "min-h-11 rounded-lg border border-slate-300 px-3 text-sm font-semibold hover:bg-slate-50";

export function PlacesPanel({
  places,
  draft,
  onDraftDone,
}: {
  places: Places;
  draft: PlaceShape | null;
  onDraftDone: () => void;
}) {
  const [renaming, setRenaming] = useState<PlaceOut | null>(null);
  const [deleting, setDeleting] = useState<PlaceOut | null>(null);
  const [importErrors, setImportErrors] = useState<string[]>([]);
  const [importNote, setImportNote] = useState<string | null>(null);

  async function importChosen(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    setImportErrors([]);
    setImportNote(null);
    const sent = await places.importFile(await file.text(), file.name);
    if (sent.ok) setImportNote(`Imported ${sent.data.places.length} places from ${file.name}.`);
    else setImportErrors([sent.message, ...Object.values(sent.fields)]);
  }

  return (
    <section aria-labelledby="places-heading" className="flex flex-col gap-3">
      <h2 id="places-heading" className="text-lg font-semibold">
        Places <span className="text-slate-600">({places.places.length})</span>
      </h2>
      <p className="text-sm text-slate-700">
        Draw a circle ({MIN_RADIUS_M} m to {MAX_RADIUS_M / 1000} km) or a polygon (up to {MAX_VERTICES} points) with the
        tools at the map&apos;s top left, then name it. Trips that start or end in a place show its name.
      </p>
      <FormMessage error={places.problem} />
      {places.places.length > 0 ? (
        <ul className="flex flex-col gap-2" aria-label="Your places">
          {places.places.map((p) => (
            <li key={p.id} data-place-id={p.id} className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
              <h3 className="truncate font-semibold">{p.name}</h3>
              <p className="text-sm text-slate-600">{describeShape(p.shape)}</p>
              <div className="mt-2 flex flex-wrap gap-2">
                <button type="button" className={small} aria-label={`Rename ${p.name}`} onClick={() => setRenaming(p)}>
                  Rename
                </button>
                <button
                  type="button"
                  className={`${small} text-red-800`}
                  aria-label={`Delete ${p.name}`}
                  onClick={() => setDeleting(p)}
                >
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <a className={`${small} inline-flex items-center`} href="/me/places/export?format=geojson" download>
          Export GeoJSON
        </a>
        <a className={`${small} inline-flex items-center`} href="/me/places/export?format=kml" download>
          Export KML
        </a>
        <label className={`${small} inline-flex cursor-pointer items-center`}>
          Import a file…
          <input
            type="file"
            accept=".geojson,.json,.kml,application/geo+json,application/vnd.google-earth.kml+xml"
            className="sr-only"
            onChange={importChosen}
          />
        </label>
      </div>
      {importErrors.length > 0 ? (
        <div role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          <p className="font-semibold">{importErrors[0]}</p>
          <ul className="mt-1 list-disc pl-5">
            {importErrors.slice(1).map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </div>
      ) : (
        <FormMessage success={importNote} />
      )}

      {draft ? (
        <PlaceNameDialog
          title="Name this place"
          shape={draft}
          onSubmit={(name) => places.create(name, draft)}
          onClose={onDraftDone}
        />
      ) : null}
      {renaming ? (
        <PlaceNameDialog
          title={`Rename ${renaming.name}`}
          shape={renaming.shape}
          initialName={renaming.name}
          onSubmit={(name) => places.rename(renaming.id, name)}
          onClose={() => setRenaming(null)}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? "place"}?`}
        onClose={() => setDeleting(null)}
      >
        <p className="text-slate-700">
          The place goes from the map; trips that started or ended there no longer name it.
        </p>
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className={small} onClick={() => setDeleting(null)} autoFocus>
            Keep place
          </button>
          <button
            type="button"
            className={destructiveButton}
            onClick={async () => {
              if (deleting) await places.remove(deleting.id);
              setDeleting(null);
            }}
          >
            Delete place
          </button>
        </div>
      </ConfirmDialog>
    </section>
  );
}
