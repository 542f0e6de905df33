// --format geojson: an RFC 7946 FeatureCollection checked against the RFC's rules (type members,
// Point coordinates [longitude, latitude] within range, a properties object, no crs) after an
// independent JSON.parse; items without usable coordinates are left out, counted and reported.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(() => server.close());

const run = (args: string[]) =>
  runCli([...args, '--base-url', server.baseUrl, '--api-key', 'k', '--retries', '0'], {
    env: { XDG_CONFIG_HOME: tempDir('config') },
  });

const place = (id: string, coordinates: Record<string, unknown>) =>
  `{"place_id":"${id}","name":"Name ${id}","phone":"+15125550101",${Object.entries(coordinates)
    .map(([key, value]) => `"${key}":${value}`)
    .join(',')}${Object.keys(coordinates).length > 0 ? ',' : ''}"rating":4.50}`;

// Written by hand: exact digits (-97.7431000) and coordinates JSON.stringify would not write.
const RESULTS = [
  place('a', { lat: '30.2672000', lng: '-97.7431000' }),
  place('b', { lng: '-97.70' }), // no lat
  place('c', { lat: 'null', lng: '-97.7' }),
  place('d', { lat: '"north"', lng: '-97.7' }),
  place('e', { lat: '95.1', lng: '-97.7' }), // beyond the pole
  place('f', { lat: '-33.8688', lng: '151.2093' }),
  place('g', {}),
];
const BODY = `{"results":[${RESULTS.join(',')}],"count":7,"query":"plumber","location":"Austin"}`;

/** RFC 7946's rules for what these features may be: asserts them and returns the features. */
function validFeatureCollection(text: string) {
  const collection = JSON.parse(text);
  expect(Object.keys(collection)).toEqual(['type', 'features']);
  expect(collection.type).toBe('FeatureCollection');
  expect(collection).not.toHaveProperty('crs');
  expect(Array.isArray(collection.features)).toBe(true);
  for (const feature of collection.features) {
    expect(feature.type).toBe('Feature');
    expect(feature.geometry.type).toBe('Point');
    const [lng, lat, ...more] = feature.geometry.coordinates;
    expect(more).toEqual([]);
    expect(typeof lng).toBe('number');
    expect(typeof lat).toBe('number');
    expect(Math.abs(lng)).toBeLessThanOrEqual(180);
    expect(Math.abs(lat)).toBeLessThanOrEqual(90);
    expect(typeof feature.properties).toBe('object');
    expect(feature.properties).not.toBeNull();
  }
  return collection.features as {
    geometry: { coordinates: number[] };
    properties: Record<string, unknown>;
  }[];
}

describe('geojson output', () => {
  it('search -f geojson: Points [lng, lat] with the digits sent; the rest reported, not dropped silently', async () => {
    server.route('POST', '/api/v1/search', json(200, BODY));
    const { exitCode, stdout, stderr } = await run(['search', 'plumber', '-l', 'Austin', '-f', 'geojson']);
    expect(exitCode).toBe(0);
    const features = validFeatureCollection(stdout);
    expect(features.map((feature) => feature.geometry.coordinates)).toEqual([
      [-97.7431, 30.2672],
      [151.2093, -33.8688],
    ]);
    expect(features[0]?.properties).toEqual({
      place_id: 'a',
      name: 'Name a',
      phone: '+15125550101',
      rating: 4.5,
    });
    // Streamed as json is: the opening, one feature a line, the closing; digits as the server sent them.
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('{"type":"FeatureCollection","features":[');
    expect(lines[1]).toContain('"coordinates":[-97.7431000,30.2672000]');
    expect(lines[1]).toContain('"rating":4.50');
    expect(lines.slice(3)).toEqual([']}', '']);
    expect(stderr).toContain('5 items left out: no usable lat, lng (missing, not a number, out of range).\n');
  });

  it('-o x.geojson chooses it; --fields picks and renames nothing but properties', async () => {
    server.route('POST', '/api/v1/search', json(200, BODY));
    const file = join(tempDir('geojson'), 'places.geojson');
    const { exitCode } = await run(['search', 'plumber', '-l', 'Austin', '--fields', 'name,lat', '-o', file]);
    expect(exitCode).toBe(0);
    const features = validFeatureCollection(readFileSync(file, 'utf8'));
    expect(features.map((feature) => feature.properties)).toEqual([{ name: 'Name a' }, { name: 'Name f' }]);
  });

  it('leads carry no coordinates: an empty collection, exit 0, and the reason on stderr', async () => {
    server.route(
      'GET',
      '/api/v1/leads',
      json(200, {
        leads: [{ id: '1', name: 'A' }],
        meta: { page: 1, limit: 25, total: 1, totalPages: 1 },
      }),
    );
    const { exitCode, stdout, stderr } = await run(['leads', '-f', 'geojson']);
    expect(exitCode).toBe(0);
    expect(stdout).toBe('{"type":"FeatureCollection","features":[]}\n');
    expect(validFeatureCollection(stdout)).toEqual([]);
    expect(stderr).toContain(
      '1 item, none with usable lat, lng: the FeatureCollection is empty.\nSearch results have coordinates; leads and history entries do not.\n',
    );
  });
});
