"use client";

import dynamic from "next/dynamic";

// Leaflet touches `window` when it loads: the maps are client-only, and the page
// shows a placeholder of the same size until they are there.
function MapLoading() {
  return (
    <div className="flex h-full w-full items-center justify-center bg-slate-100 text-sm text-slate-600" role="status">
      Loading the map…
    </div>
  );
}

export const LazyVehicleMap = dynamic(() => import("./vehicle-map"), { ssr: false, loading: MapLoading });
export const LazyTrackMap = dynamic(() => import("./track-map"), { ssr: false, loading: MapLoading });
export const LazySimulatorMap = dynamic(() => import("./simulator-map"), { ssr: false, loading: MapLoading });
export const LazyPositionMap = dynamic(() => import("./position-map"), { ssr: false, loading: MapLoading });
