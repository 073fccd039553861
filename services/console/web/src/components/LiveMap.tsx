import { useEffect, useRef, useState } from 'react';
import { Group, Text } from '@mantine/core';
import L from 'leaflet';
import { remainingRoute } from '../route';
import type { LiveView } from '../types';

interface Layers {
  map: L.Map;
  rider: L.CircleMarker;
  drop: L.CircleMarker;
  route: L.Polyline;
}

const RIDER = { color: '#0b4f2c', fill: '#2b8a3e' };
const DROP = { color: '#8a1c1c', fill: '#d9480f' };
const ROUTE = '#1c5ea8';
/** How long the rider takes to glide from one position to the next. */
const GLIDE_MS = 1200;

function createLayers(element: HTMLElement, tileUrl: string, attribution: string, onTileError: () => void, compact: boolean): Layers {
  const map = L.map(element, { zoomControl: !compact, attributionControl: Boolean(tileUrl) });
  if (tileUrl) L.tileLayer(tileUrl, { attribution, maxZoom: 19 }).on('tileerror', onTileError).addTo(map);
  if (!compact) L.control.scale({ imperial: false }).addTo(map);
  const route = L.polyline([], { color: ROUTE, weight: 4, className: 'route-line' }).addTo(map);
  const drop = L.circleMarker([0, 0], { radius: 9, color: DROP.color, fillColor: DROP.fill, fillOpacity: 0.9, className: 'drop-marker' }).bindTooltip('Drop').addTo(map);
  const rider = L.circleMarker([0, 0], { radius: 9, color: RIDER.color, fillColor: RIDER.fill, fillOpacity: 0.9, className: 'rider-marker' }).bindTooltip('Rider').addTo(map);
  return { map, rider, drop, route };
}

/**
 * Moves the rider from where it is to `to` over GLIDE_MS (eased), the view following it, the
 * route drawn from the rider's current place on. Returns a cancel for the next position.
 */
function glide(layers: Layers, to: L.LatLng, route: [number, number][], follow: boolean): () => void {
  const from = layers.rider.getLatLng();
  const jump = from.lat === 0 && from.lng === 0;
  const started = performance.now();
  let frame = 0;
  const step = (now: number) => {
    const t = jump ? 1 : Math.min(1, (now - started) / GLIDE_MS);
    const eased = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
    const at = L.latLng(from.lat + (to.lat - from.lat) * eased, from.lng + (to.lng - from.lng) * eased);
    layers.rider.setLatLng(at);
    layers.route.setLatLngs(remainingRoute(route, [at.lng, at.lat]).map(([lng, lat]) => [lat, lng] as [number, number]));
    if (t < 1) frame = requestAnimationFrame(step);
    else if (follow && !layers.map.getBounds().pad(-0.15).contains(at)) layers.map.panTo(at, { animate: true });
  };
  frame = requestAnimationFrame(step);
  return () => cancelAnimationFrame(frame);
}

function Legend() {
  const swatch = (color: string, round: boolean) => <span aria-hidden style={{ display: 'inline-block', width: 12, height: round ? 12 : 4, borderRadius: round ? 6 : 0, background: color, marginRight: 4, verticalAlign: 'middle' }} />;
  return (
    <Group gap="md" data-testid="map-legend" aria-label="Legend" role="list">
      <Text size="xs" role="listitem">{swatch(RIDER.fill, true)}Rider</Text>
      <Text size="xs" role="listitem">{swatch(DROP.fill, true)}Drop</Text>
      <Text size="xs" role="listitem">{swatch(ROUTE, false)}Route still to go</Text>
    </Group>
  );
}

/**
 * Draws the rider, the drop, the route still to go and a scale; tiles only when a URL template
 * is configured (and they load). The rider glides to each new position and the view follows it.
 */
export function LiveMap({ view, tileUrl, attribution, height = 340, compact = false }: { view: LiveView; tileUrl: string; attribution: string; height?: number; compact?: boolean }) {
  const element = useRef<HTMLDivElement>(null);
  const layers = useRef<Layers | null>(null);
  const fitted = useRef(false);
  const [tilesFailed, setTilesFailed] = useState(false);
  useEffect(() => {
    if (!element.current) return;
    const created = createLayers(element.current, tileUrl, attribution, () => setTilesFailed(true), compact);
    layers.current = created;
    const resize = setTimeout(() => created.map.invalidateSize(), 50);
    return () => {
      clearTimeout(resize);
      created.map.remove();
      layers.current = null;
      fitted.current = false;
    };
  }, [tileUrl, attribution, compact]);
  useEffect(() => {
    const current = layers.current;
    if (!current) return;
    // GeoJSON positions: [lng, lat].
    const route = (view.route?.geometry.coordinates ?? []).map((position) => [position[0]!, position[1]!] as [number, number]);
    if (view.drop) current.drop.setLatLng([view.drop.lat, view.drop.lng]);
    if (!view.rider) {
      current.rider.setStyle({ opacity: 0, fillOpacity: 0 });
      current.route.setLatLngs(route.map(([lng, lat]) => [lat, lng] as [number, number]));
    } else current.rider.setStyle({ opacity: 1, fillOpacity: 0.9 });
    if (!fitted.current && (view.rider || view.drop)) {
      const points: L.LatLngExpression[] = route.map(([lng, lat]) => [lat, lng] as [number, number]);
      if (view.rider) points.push([view.rider.lat, view.rider.lng]);
      if (view.drop) points.push([view.drop.lat, view.drop.lng]);
      current.map.fitBounds(L.latLngBounds(points).pad(0.2), { maxZoom: 16 });
      fitted.current = true;
    }
    if (!view.rider) return;
    return glide(current, L.latLng(view.rider.lat, view.rider.lng), route, !compact);
  }, [view, compact]);
  return (
    <div>
      <div ref={element} role="region" aria-label="Map of the rider, the drop and the route" data-testid={compact ? 'mini-map' : 'map'} style={{ height, background: '#e9ecef' }} />
      {!compact && <Legend />}
      {!compact && (tilesFailed || !tileUrl) && <Text size="xs">{tileUrl ? 'Map tiles could not load: showing the route without a background map.' : 'No map tiles configured: showing the route over a plain background.'}</Text>}
    </div>
  );
}
