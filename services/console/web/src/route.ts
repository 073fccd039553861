/** Map geometry without I/O: the part of a route still ahead of the rider. */

type Point = [number, number];

/** Where `p` falls on segment a-b: the nearest point and its squared distance (planar; fine at city scale). */
function nearestOnSegment(p: Point, a: Point, b: Point): { at: Point; d2: number } {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2));
  const at: Point = [a[0] + t * dx, a[1] + t * dy];
  return { at, d2: (p[0] - at[0]) ** 2 + (p[1] - at[1]) ** 2 };
}

/**
 * The route (GeoJSON order, [lng, lat]) from the point nearest the rider to its end, starting at
 * the rider: the line shortens as the rider advances. A route of fewer than two points is kept.
 */
export function remainingRoute(route: Point[], rider: Point): Point[] {
  if (route.length < 2) return route;
  let best = { index: 0, at: route[0]!, d2: Number.POSITIVE_INFINITY };
  for (let i = 0; i < route.length - 1; i++) {
    const found = nearestOnSegment(rider, route[i]!, route[i + 1]!);
    if (found.d2 < best.d2) best = { index: i, ...found };
  }
  return [rider, best.at, ...route.slice(best.index + 1)];
}
