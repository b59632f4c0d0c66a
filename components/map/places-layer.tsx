"use client";

import "./leaflet-global";
import "@geoman-io/leaflet-geoman-free";
import "@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css";
import L from "leaflet";
import { useEffect, useRef } from "react";
import { useMap } from "react-leaflet";
import type { PlaceOut, PlaceShape } from "@/server/places/schemas";

// The driver's places on the live map, drawn and edited with Leaflet-Geoman
// (docs/decisions/0147-places-drawn-with-leaflet-geoman.md): its toolbar offers a circle and a
// polygon to draw, and editing, moving and removing of the places. Geoman only touches layers that
// opt in (`pmIgnore: false`), so the vehicles' markers stay as they are. What is drawn or changed
// goes to the callbacks as a shape; the server decides, and the places it answers are drawn here
// again (`revision` redraws them all, e.g. after a refused edit put a shape back).

export type PlacesLayerProps = {
  places: PlaceOut[];
  /** A shape drawn and not yet named: shown dashed while the name dialog is open. */
  draft: PlaceShape | null;
  revision: number;
  onDrawn: (shape: PlaceShape) => void;
  onReshape: (id: number, shape: PlaceShape) => void;
  onRemove: (id: number) => void;
};

L.PM.setOptIn(true);

const titles = {
  drawPolyButton: "Draw a place as a polygon",
  drawCircleButton: "Draw a place as a circle",
  editButton: "Edit the places' shapes",
  dragButton: "Move places",
  deleteButton: "Delete places",
};

/** Seven decimals (about a centimetre) and a tenth of a metre: what a drawn place means. */
const round7 = (v: number) => Math.round(v * 1e7) / 1e7;
const point = (p: L.LatLng) => ({
  latitude: round7(p.lat),
  longitude: round7(L.Util.wrapNum(p.lng, [-180, 180], true)),
});

function shapeOf(layer: L.Layer): PlaceShape | null {
  if (layer instanceof L.Circle)
    return { kind: "circle", center: point(layer.getLatLng()), radius: Math.round(layer.getRadius() * 10) / 10 };
  if (layer instanceof L.Polygon) {
    const rings = layer.getLatLngs() as L.LatLng[] | L.LatLng[][];
    const ring = (Array.isArray(rings[0]) ? rings[0] : rings) as L.LatLng[];
    return { kind: "polygon", polygon: ring.map(point) };
  }
  return null;
}

const style = { color: "#1d4ed8", weight: 2, fillOpacity: 0.12 };

function layerOf(shape: PlaceShape, options: L.PathOptions): L.Path {
  return shape.kind === "circle"
    ? L.circle([shape.center.latitude, shape.center.longitude], { ...options, radius: shape.radius })
    : L.polygon(
        shape.polygon.map((p) => [p.latitude, p.longitude] as [number, number]),
        options,
      );
}

const keyOf = (p: PlaceOut) => JSON.stringify([p.name, p.shape]);

export function PlacesLayer({ places, draft, revision, onDrawn, onReshape, onRemove }: PlacesLayerProps) {
  const map = useMap();
  const group = useRef<L.FeatureGroup | null>(null);
  const drawn = useRef(new Map<number, { layer: L.Path; key: string }>());
  // The callbacks of the latest render, for Leaflet's handlers bound once.
  const handlers = useRef({ onDrawn, onReshape, onRemove });
  useEffect(() => {
    handlers.current = { onDrawn, onReshape, onRemove };
  });

  // The toolbar and the "drawn" handler, once per map.
  useEffect(() => {
    const layers = L.featureGroup().addTo(map);
    group.current = layers;
    map.pm.setLang("en", { buttonTitles: titles }, "en");
    map.pm.addControls({
      position: "topleft",
      drawMarker: false,
      drawCircleMarker: false,
      drawPolyline: false,
      drawRectangle: false,
      drawText: false,
      cutPolygon: false,
      rotateMode: false,
      drawPolygon: true,
      drawCircle: true,
      editMode: true,
      dragMode: true,
      removalMode: true,
    });
    map.pm.setGlobalOptions({ allowSelfIntersection: false, pathOptions: style });
    // Geoman names its buttons by a title on their container: the links themselves get the name too.
    for (const button of Object.values(map.pm.Toolbar.getButtons())) {
      const container = (button as unknown as { buttonsDomNode?: HTMLElement }).buttonsDomNode;
      const link = container?.querySelector("a");
      const title = container?.getAttribute("title");
      if (link && title) link.setAttribute("aria-label", title);
    }
    const created = (e: { layer: L.Layer }) => {
      const shape = shapeOf(e.layer);
      e.layer.remove();
      if (shape) handlers.current.onDrawn(shape);
    };
    map.on("pm:create", created);
    const entries = drawn.current;
    return () => {
      map.off("pm:create", created);
      map.pm.removeControls();
      layers.remove();
      entries.clear();
    };
  }, [map]);

  // The places as layers: those whose name or shape changed are drawn again, the others left be
  // (a layer being edited keeps its handles); a new revision draws them all again.
  const drawnRevision = useRef(revision);
  useEffect(() => {
    const layers = group.current;
    if (!layers) return;
    const entries = drawn.current;
    const wanted = new Map(places.map((p) => [p.id, p]));
    const redrawAll = drawnRevision.current !== revision;
    drawnRevision.current = revision;
    for (const [id, entry] of entries) {
      const place = wanted.get(id);
      if (redrawAll || !place || keyOf(place) !== entry.key) {
        layers.removeLayer(entry.layer);
        entries.delete(id);
      }
    }
    for (const place of places) {
      if (entries.has(place.id)) continue;
      const layer = layerOf(place.shape, { ...style, pmIgnore: false, className: "wayline-place" } as L.PathOptions);
      layer.bindTooltip(place.name, { permanent: true, direction: "center", className: "wayline-place-label" });
      const entry = { layer, key: keyOf(place) };
      layer.on("pm:edit", () => {
        const shape = shapeOf(layer);
        if (!shape) return;
        // The shape sent is the one now drawn: the server's echo of it leaves the layer as it is.
        entry.key = keyOf({ ...place, shape });
        handlers.current.onReshape(place.id, shape);
      });
      layer.on("pm:remove", () => {
        entries.delete(place.id);
        handlers.current.onRemove(place.id);
      });
      layers.addLayer(layer);
      entries.set(place.id, entry);
    }
  }, [places, revision]);

  // The drawn, still unnamed shape, dashed.
  useEffect(() => {
    if (!draft) return;
    const layer = layerOf(draft, { ...style, dashArray: "6 6", className: "wayline-place-draft" }).addTo(map);
    return () => {
      layer.remove();
    };
  }, [map, draft]);

  return null;
}
