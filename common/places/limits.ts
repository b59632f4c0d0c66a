// A place's limits (contract: a circle of 25 m to 50 km, a polygon of 3 to 100 points, a name of
// up to 60 characters), shared by the server's validation and the map's hints.

export const MIN_RADIUS_M = 25;
export const MAX_RADIUS_M = 50_000;
export const MIN_VERTICES = 3;
export const MAX_VERTICES = 100;
export const MAX_NAME = 60;
