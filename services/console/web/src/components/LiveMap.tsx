import { useEffect, useRef, useState } from 'react';
import { Text } from '@mantine/core';
import L from 'leaflet';
import type { LiveView } from '../types';

interface Layers {
  map: L.Map;
  rider: L.CircleMarker;
  drop: L.CircleMarker;
  route: L.Polyline;
}

const toLatLngs = (view: LiveView): L.LatLngExpression[] => (view.route?.geometry.coordinates ?? []).map(([lng, lat]) => [lat, lng] as [number, number]);

function createLayers(element: HTMLElement, tileUrl: string, attribution: string, onTileError: () => void): Layers {
  const map = L.map(element, { zoomControl: true, attributionControl: Boolean(tileUrl) });
  if (tileUrl) L.tileLayer(tileUrl, { attribution, maxZoom: 19 }).on('tileerror', onTileError).addTo(map);
  L.control.scale({ imperial: false }).addTo(map);
  const route = L.polyline([], { color: '#1c5ea8', weight: 4, className: 'route-line' }).addTo(map);
  const drop = L.circleMarker([0, 0], { radius: 9, color: '#8a1c1c', fillColor: '#d9480f', fillOpacity: 0.9, className: 'drop-marker' }).bindTooltip('Drop').addTo(map);
  const rider = L.circleMarker([0, 0], { radius: 9, color: '#0b4f2c', fillColor: '#2b8a3e', fillOpacity: 0.9, className: 'rider-marker' }).bindTooltip('Rider').addTo(map);
  return { map, rider, drop, route };
}

/** Draws the rider, the drop, the route and a scale; tiles only when a URL template is configured (and they load). */
export function LiveMap({ view, tileUrl, attribution }: { view: LiveView; tileUrl: string; attribution: string }) {
  const element = useRef<HTMLDivElement>(null);
  const layers = useRef<Layers | null>(null);
  const fitted = useRef(false);
  const [tilesFailed, setTilesFailed] = useState(false);
  useEffect(() => {
    if (!element.current) return;
    const created = createLayers(element.current, tileUrl, attribution, () => setTilesFailed(true));
    layers.current = created;
    const resize = setTimeout(() => created.map.invalidateSize(), 50);
    return () => {
      clearTimeout(resize);
      created.map.remove();
      layers.current = null;
      fitted.current = false;
    };
  }, [tileUrl, attribution]);
  useEffect(() => {
    const current = layers.current;
    if (!current) return;
    const points: L.LatLngExpression[] = [];
    if (view.rider) current.rider.setLatLng([view.rider.lat, view.rider.lng]).setStyle({ opacity: 1, fillOpacity: 0.9 });
    else current.rider.setStyle({ opacity: 0, fillOpacity: 0 });
    if (view.drop) current.drop.setLatLng([view.drop.lat, view.drop.lng]);
    current.route.setLatLngs(toLatLngs(view));
    if (view.rider) points.push([view.rider.lat, view.rider.lng]);
    if (view.drop) points.push([view.drop.lat, view.drop.lng]);
    if (!fitted.current && points.length) {
      current.map.fitBounds(L.latLngBounds([...points, ...toLatLngs(view)]).pad(0.2), { maxZoom: 16 });
      fitted.current = true;
    }
  }, [view]);
  return (
    <div>
      <div ref={element} role="region" aria-label="Map of the rider, the drop and the route" data-testid="map" style={{ height: 340, background: '#e9ecef' }} />
      {(tilesFailed || !tileUrl) && <Text size="xs">{tileUrl ? 'Map tiles could not load: showing the route without a background map.' : 'No map tiles configured: showing the route over a plain background.'}</Text>}
    </div>
  );
}
