"use client";

import { useState } from "react";
import type { PlaceOut, PlaceShape } from "@/server/places/schemas";
import { sendJson, type Sent } from "./send";

// The driver's places on the map page: the list as the server last answered it, and the writes
// that change it (/me/places). A refused reshape or delete bumps `revision`, which draws every
// place again as the server has it (the map had already moved or removed the layer).

export type Places = ReturnType<typeof usePlaces>;

const byName = (a: PlaceOut, b: PlaceOut) => a.name.localeCompare(b.name) || a.id - b.id;

export function usePlaces(initial: PlaceOut[]) {
  const [places, setPlaces] = useState(initial);
  const [revision, setRevision] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  const put = (place: PlaceOut) => setPlaces((all) => [...all.filter((p) => p.id !== place.id), place].sort(byName));
  const failed = (sent: Extract<Sent<unknown>, { ok: false }>) => {
    setProblem(Object.values(sent.fields)[0] ?? sent.message);
    setRevision((n) => n + 1);
  };

  return {
    places,
    revision,
    problem,
    clearProblem: () => setProblem(null),
    /** Create or rename: the answer goes back to the dialog, which shows its field errors. */
    async create(name: string, shape: PlaceShape) {
      const sent = await sendJson<{ place: PlaceOut }>("POST", "/me/places", { name, shape });
      if (sent.ok) put(sent.data.place);
      return sent;
    },
    async rename(id: number, name: string) {
      const sent = await sendJson<{ place: PlaceOut }>("PATCH", `/me/places/${id}`, { name });
      if (sent.ok) put(sent.data.place);
      return sent;
    },
    async reshape(id: number, shape: PlaceShape) {
      setProblem(null);
      const sent = await sendJson<{ place: PlaceOut }>("PATCH", `/me/places/${id}`, { shape });
      if (sent.ok) put(sent.data.place);
      else failed(sent);
    },
    async remove(id: number) {
      setProblem(null);
      const sent = await sendJson("DELETE", `/me/places/${id}`);
      if (sent.ok) setPlaces((all) => all.filter((p) => p.id !== id));
      else failed(sent);
      return sent;
    },
    async importFile(content: string, filename: string) {
      const sent = await sendJson<{ places: PlaceOut[] }>("POST", "/me/places/import", { content, filename });
      if (sent.ok) setPlaces((all) => [...all, ...sent.data.places].sort(byName));
      return sent;
    },
  };
}
